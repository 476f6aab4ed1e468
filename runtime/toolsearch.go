package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/toolsearch"
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
			return s.searchList(callerOf(req)), nil
		case *mcp.CallToolRequest:
			if r.Params == nil || s.plan.ToolIndex[r.Params.Name] != nil {
				break
			}
			switch r.Params.Name {
			case toolsearch.SearchName:
				return s.searchTools(callerOf(req), r.Params.Arguments), nil
			case toolsearch.DescribeName:
				return s.describeTools(callerOf(req), r.Params.Arguments), nil
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

// searchList is tools/list with tool search on.
func (s *Server) searchList(c *auth.Caller) *mcp.ListToolsResult {
	res := &mcp.ListToolsResult{Tools: append([]*mcp.Tool{}, toolsearch.Tools...)}
	s.plan.Cache.Tools.Apply(&res.Cacheable)
	for _, t := range s.plan.Tools {
		if t.Always && s.allowed(c, t) {
			res.Tools = append(res.Tools, t.Def)
		}
	}
	return res
}

// searchTools ranks the tools the caller may call for the query.
func (s *Server) searchTools(c *auth.Caller, raw json.RawMessage) *mcp.CallToolResult {
	var a struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || strings.TrimSpace(a.Query) == "" {
		return errorResult("search_tools needs a query: what you want to do, in plain words")
	}
	limit := a.Limit
	if limit <= 0 {
		limit = toolsearch.DefaultResults
	}
	limit = min(limit, toolsearch.MaxResults)
	type found struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description"`
	}
	var out []found
	var text strings.Builder
	for _, h := range s.plan.Search.Index(s.plan.Tools).Search(a.Query, len(s.plan.Tools)) {
		t := s.plan.Tools[h.Doc]
		if !s.allowed(c, t) {
			continue
		}
		f := found{t.Def.Name, t.Def.Title, firstParagraph(t.Def.Description)}
		out = append(out, f)
		fmt.Fprintf(&text, "%s: %s\n", f.Name, f.Description)
		if len(out) == limit {
			break
		}
	}
	if len(out) == 0 {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no tool matches; try other words"}},
			StructuredContent: map[string]any{"tools": []found{}}}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text.String()}},
		StructuredContent: map[string]any{"tools": out}}
}

// firstParagraph is a description up to its first blank line.
func firstParagraph(d string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(d), "\n\n")
	return strings.Join(strings.Fields(p), " ")
}

// describeTools returns the definitions of the named tools the caller may
// call.
func (s *Server) describeTools(c *auth.Caller, raw json.RawMessage) *mcp.CallToolResult {
	var a struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || len(a.Names) == 0 {
		return errorResult("describe_tools needs the names of tools, as search_tools returns them")
	}
	var defs []*mcp.Tool
	var unknown []string
	for _, n := range a.Names[:min(len(a.Names), toolsearch.MaxResults)] {
		if t := s.plan.ToolIndex[n]; t != nil && s.allowed(c, t) {
			defs = append(defs, t.Def)
		} else {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return errorResult(fmt.Sprintf("no tool called %s; search_tools finds them", strings.Join(unknown, ", ")))
	}
	data, _ := json.Marshal(defs)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(data)}},
		StructuredContent: map[string]any{"tools": defs}}
}
