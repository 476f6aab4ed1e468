package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// The 2025-11-25 experimental tasks (basic/utilities/tasks): the client
// asks for a task with params.task, and fetches the result with
// tasks/result.

// callAsTask2025 answers a 2025-11-25 tools/call: a task when the client
// asks for one and the tool allows it; -32601 when the tool cannot run as
// asked (the spec's tool-level negotiation).
func (s *Server) callAsTask2025(ctx context.Context, t *plan.Tool, req *mcp.CallToolRequest) (mcp.Result, bool, error) {
	asked := req.Params.Task
	switch {
	case asked == nil && t.Task == taskRequired:
		return nil, true, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("tool %q must be called as a task: add params.task", t.Def.Name)}
	case asked == nil:
		return nil, false, nil
	case t.Task == "":
		return nil, true, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("tool %q does not run as a task: call it without params.task", t.Def.Name)}
	}
	var ttl time.Duration
	if asked.TTL != nil {
		ttl = time.Duration(*asked.TTL) * time.Millisecond
	}
	tk, err := s.startTask(ctx, t, req, ttl, false, nil)
	if err != nil {
		return nil, true, err
	}
	return taskwire.NewResult(map[string]any{"task": taskwire.Task2025(tk)}), true, nil
}
