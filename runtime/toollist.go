package runtime

import (
	"context"
	"encoding/base64"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// toolsPageSize is how many tools one tools/list page holds, as the go-sdk's
// own default.
const toolsPageSize = mcp.DefaultPageSize

// toolsMiddleware answers tools/list and tools/call from the built tools.
//
// Registering a tool with the go-sdk (AddTool) re-encodes its input schema
// twice, through a fresh 32 KiB decoder each time: for a config of hundreds
// of tools that was a third of startup, for a check mcpgen has done already
// when it loaded the file. The tools never change while serving, so they are
// served from the list built once.
func (s *Server) toolsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			if r, ok := req.(*mcp.ListToolsRequest); ok {
				return s.listTools(r)
			}
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok {
				if res, ok, err := s.callAsTask(ctx, r); ok {
					return res, err
				}
				return s.callTool(ctx, r)
			}
		}
		return next(ctx, method, req)
	}
}

// listTools answers one page of tools/list. The cursor is opaque to clients:
// the position of the page's first tool.
func (s *Server) listTools(req *mcp.ListToolsRequest) (*mcp.ListToolsResult, error) {
	start := 0
	if req.Params != nil && req.Params.Cursor != "" {
		var ok bool
		if start, ok = decodeToolsCursor(req.Params.Cursor, len(s.plan.Tools)); !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
	}
	page := s.toolsPage
	if page <= 0 {
		page = toolsPageSize
	}
	end := min(start+page, len(s.plan.Tools))
	res := &mcp.ListToolsResult{Tools: make([]*mcp.Tool, 0, end-start)}
	s.plan.Cache.Tools.Apply(&res.Cacheable) // the same on every page
	for _, t := range s.plan.Tools[start:end] {
		res.Tools = append(res.Tools, t.Def)
	}
	if end < len(s.plan.Tools) {
		res.NextCursor = encodeToolsCursor(end)
	}
	return res, nil
}

func encodeToolsCursor(pos int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("tools:" + strconv.Itoa(pos)))
}

func decodeToolsCursor(cursor string, n int) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < len("tools:") || string(b[:len("tools:")]) != "tools:" {
		return 0, false
	}
	pos, err := strconv.Atoi(string(b[len("tools:"):]))
	if err != nil || pos <= 0 || pos >= n {
		return 0, false
	}
	return pos, true
}

// headerTool returns the tool whose Mcp-Param-* headers the HTTP transport
// checks on a call: nil for tools without x-mcp-header annotations, which
// need no check.
func (s *Server) headerTool(name string) *mcp.Tool {
	if t, ok := s.plan.ToolIndex[name]; ok && t.Headers {
		return t.Def
	}
	return nil
}

// ToolBackends maps each tool with a handler to what its calls load: the
// name of its shared backend, or its handler's kind. Package transport caps
// the calls running at once on each.
func (s *Server) ToolBackends() map[string]string {
	s = s.now()
	out := map[string]string{}
	for _, t := range s.plan.Tools {
		if t.Backend != "" {
			out[t.Def.Name] = t.Backend
		}
	}
	return out
}
