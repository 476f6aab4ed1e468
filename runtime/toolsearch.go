package runtime

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/toolsearch"
	"github.com/mcpgen/mcpgen/runtime/toolsearch/searchtools"
)

// searchMiddleware serves tool search (server.tool_search, serve
// --tool-search): tools/list lists the search tools and the tools marked
// always; search_tools and describe_tools answer from the plan; call_tool
// becomes a tools/call of the named tool passed down the whole chain, so it
// meets every check a direct call meets (scopes, audit, rate limits,
// concurrency, argument validation, masking). A tool of the config that
// has one of their names keeps it; any tool can be called by name.
func (s *Server) searchMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ListToolsRequest:
			c := callerOf(req)
			return searchtools.List(s.plan, func(t *plan.Tool) bool { return s.allowed(c, t) }), nil
		case *mcp.CallToolRequest:
			if r.Params == nil || s.plan.ToolIndex[r.Params.Name] != nil {
				break
			}
			switch r.Params.Name {
			case toolsearch.SearchName:
				c := callerOf(req)
				return searchtools.Search(s.plan, func(t *plan.Tool) bool { return s.allowed(c, t) }, r.Params.Arguments), nil
			case toolsearch.DescribeName:
				c := callerOf(req)
				return searchtools.Describe(s.plan, func(t *plan.Tool) bool { return s.allowed(c, t) }, r.Params.Arguments), nil
			case toolsearch.CallName:
				var a struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				}
				if err := json.Unmarshal(r.Params.Arguments, &a); err != nil || a.Name == "" {
					return errorResult("call_tool needs the name of a tool and its arguments"), nil
				}
				inner := *r.Params
				inner.Name, inner.Arguments = a.Name, a.Arguments
				return next(ctx, method, &mcp.CallToolRequest{Session: r.Session, Params: &inner, Extra: r.Extra})
			}
		}
		return next(ctx, method, req)
	}
}

func callerOf(req mcp.Request) *auth.Caller {
	if extra := req.GetExtra(); extra != nil {
		return auth.CallerFromTokenInfo(extra.TokenInfo)
	}
	return nil
}

// allowed reports whether the caller may call t (nil: no caller to check).
func (s *Server) allowed(c *auth.Caller, t *plan.Tool) bool {
	return c == nil || c.HasScopes(t.Scopes)
}
