package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/spill"
)

// limitResult holds the text of res to the tool's max_result, cutting it
// or keeping it in pages. It runs after masking: a cut never leaves part
// of a credential that the mask would have caught whole.
func (s *Server) limitResult(ctx context.Context, t *plan.Tool, res *mcp.CallToolResult) *mcp.CallToolResult {
	limit := t.MaxResult
	if limit <= 0 || res == nil || spill.TextSize(res.Content) <= limit {
		return res
	}
	if t.Pages {
		return s.plan.Spill.Spill(res, limit, callerSubject(ctx))
	}
	return spill.Cap(res, limit)
}

// callerSubject is the subject of the authenticated caller, "" for none.
func callerSubject(ctx context.Context) string {
	if c := auth.CallerFrom(ctx); c != nil {
		return c.Subject
	}
	return ""
}

// readSpill answers resources/read of a kept result's page.
func (s *Server) readSpill(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return s.plan.Spill.Read(req.Params.URI, callerSubject(ctx))
}
