package runtime

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// The 2026-07-28 io.modelcontextprotocol/tasks extension: the server
// decides, for a client that declares the extension on the request, that a
// call runs as a task; the client polls tasks/get (which carries the result
// or error when done), answers input requests with tasks/update, and
// cancels with tasks/cancel.

// callAsTask2026 answers a 2026 tools/call of a task tool: a task for a
// client that declares the extension (a legacy params.task is ignored),
// -32021 for one that does not when the tool requires a task.
func (s *Server) callAsTask2026(ctx context.Context, t *plan.Tool, req *mcp.CallToolRequest) (mcp.Result, bool, error) {
	switch {
	case t.Task == "":
		return nil, false, nil
	case !taskwire.Declares(req.Params.Meta) && t.Task == taskRequired:
		return nil, true, taskwire.Missing()
	case !taskwire.Declares(req.Params.Meta):
		return nil, false, nil
	}
	var carried *reqstate.State
	if t.TaskAfter >= 0 { // some steps run before the task starts
		res, st, err := s.stepsBeforeTask(ctx, t, req)
		if res != nil || err != nil {
			return res, true, err
		}
		carried = st
	}
	tk, err := s.startTask(ctx, t, req, 0, true, carried)
	if err != nil {
		return nil, true, err
	}
	v := taskwire.Task2026(tk)
	v["resultType"] = "task"
	return taskwire.NewResult(v), true, nil
}

// stepsBeforeTask runs, for a 2026 call, the steps of t up to its
// task_after as a call without a task runs them: their questions go back
// as an InputRequiredResult with a signed requestState until all are
// answered. It returns that result (or a tool error result), a protocol
// error, or, once the steps are done, their state for the task to resume
// from.
func (s *Server) stepsBeforeTask(ctx context.Context, t *plan.Tool, req *mcp.CallToolRequest) (*mcp.CallToolResult, *reqstate.State, error) {
	caps := req.ClientCapabilities()
	if err := missingCapabilities(t.Requires, caps); err != nil {
		return nil, nil, err
	}
	args, who, err := s.prepare(ctx, t, req.Params.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil, nil
	}
	round := modernRound(modernVersion, caps, req.Params.InputResponses, req.Params.RequestState)
	if !round.begin(ctx, s, "tool", t.Def.Name, args) {
		return nil, nil, round.protoErr
	}
	n := &notifier{req: req, logger: t.Def.Name, levels: s.plan.LogLevels, caps: caps}
	data := map[string]any{"args": args, plan.AuthName: who}
	upTo := t.TaskAfter + 1
	err = s.runSteps(ctx, t.Def.Name, t.Steps[:upTo], data, n, round)
	var protoErr *jsonrpc.Error
	switch {
	case errors.Is(err, errInputRequired):
		return s.plan.Mask.ToolResult(&mcp.CallToolResult{InputRequests: round.asked, RequestState: round.stateToken(s)}), nil, nil
	case errors.As(err, &protoErr):
		return nil, nil, err
	case err != nil:
		return errorResult(err.Error()), nil, nil
	case !round.finish(s):
		return nil, nil, round.protoErr
	}
	round.next.Done = upTo
	return nil, &round.next, nil
}
