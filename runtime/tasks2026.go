package runtime

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/task"
)

// The 2026-07-28 io.modelcontextprotocol/tasks extension: the server
// decides, for a client that declares the extension on the request, that a
// call runs as a task; the client polls tasks/get (which carries the result
// or error when done), answers input requests with tasks/update, and
// cancels with tasks/cancel.

// tasksExtension names the extension.
const tasksExtension = "io.modelcontextprotocol/tasks"

// codeMissingCapability is -32021: the request lacks a client capability.
const codeMissingCapability = mcp.CodeMissingRequiredClientCapabilities

// discoverTasks advertises the extension in server/discover, where the
// 2025-11-25 capabilities.tasks must not appear.
func discoverTasks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if d, ok := res.(*mcp.DiscoverResult); ok && err == nil && d.Capabilities != nil {
			d.Capabilities.Tasks = nil // a copy made for this answer
			d.Capabilities.AddExtension(tasksExtension, nil)
		}
		return res, err
	}
}

// declaresTasks reports whether a 2026 request declares the extension.
func declaresTasks(meta map[string]any) bool {
	caps, _ := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[tasksExtension]
	return ok
}

// missingTasks is the error for a client that must declare the extension.
func missingTasks() error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{tasksExtension: map[string]any{}}}})
	return &jsonrpc.Error{Code: codeMissingCapability, Message: "Missing required client capability: " + tasksExtension, Data: data}
}

// notIn2026 is the error for a 2025-11-25 method called at 2026-07-28.
func notIn2026(method string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: method + " is not part of the tasks extension"}
}

// callAsTask2026 answers a 2026 tools/call of a task tool: a task for a
// client that declares the extension (a legacy params.task is ignored),
// -32021 for one that does not when the tool requires a task.
func (s *Server) callAsTask2026(ctx context.Context, t *tool, req *mcp.CallToolRequest) (mcp.Result, bool, error) {
	switch {
	case t.task == "":
		return nil, false, nil
	case !declaresTasks(req.Params.Meta) && t.task == taskRequired:
		return nil, true, missingTasks()
	case !declaresTasks(req.Params.Meta):
		return nil, false, nil
	}
	var carried *roundState
	if t.taskAfter >= 0 { // some steps run before the task starts
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
	v := task2026(tk)
	v["resultType"] = "task"
	return &wireResult{v: v}, true, nil
}

// task2026 is a task on the 2026-07-28 wire, with its result, error or
// input requests inlined.
func task2026(t *task.Task) map[string]any { return taskFields(t, "ttlMs", "pollIntervalMs") }

// detailed2026 is a task as tasks/get answers it.
func detailed2026(t *task.Task) map[string]any {
	m := task2026(t)
	m["resultType"] = "complete"
	switch {
	case t.Status == task.InputRequired && len(t.InputRequests) > 0:
		m["inputRequests"] = t.InputRequests
	case t.Status == task.Completed:
		m["result"] = t.Result
	case t.Status == task.Failed && t.Error != nil:
		m["error"] = t.Error
	}
	return m
}

func (s *Server) taskGet2026(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if !declaresTasks(p.Meta) {
		return nil, missingTasks()
	}
	t, err := s.tasks.Get(ctx, taskOwner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, taskError(err)
	}
	return &wireResult{v: detailed2026(t)}, nil
}

// taskUpdate records answers to a task's input requests (2026 only).
func (s *Server) taskUpdate(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if !modernRequest(p.Meta) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/update is part of the 2026-07-28 tasks extension"}
	}
	if !declaresTasks(p.Meta) {
		return nil, missingTasks()
	}
	if err := s.tasks.Respond(ctx, taskOwner(ctx, ss), p.TaskID, p.InputResponses); err != nil {
		return nil, taskError(err)
	}
	return &wireResult{v: map[string]any{"resultType": "complete"}}, nil
}

// taskCancel2026 acknowledges a cancellation, also of a finished task.
func (s *Server) taskCancel2026(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if !declaresTasks(p.Meta) {
		return nil, missingTasks()
	}
	if _, err := s.tasks.Cancel(ctx, taskOwner(ctx, ss), p.TaskID); err != nil && !errors.Is(err, task.ErrTerminal) {
		return nil, taskError(err)
	}
	return &wireResult{v: map[string]any{"resultType": "complete"}}, nil
}

// stepsBeforeTask runs, for a 2026 call, the steps of t up to its
// task_after as a call without a task runs them: their questions go back
// as an InputRequiredResult with a signed requestState until all are
// answered. It returns that result (or a tool error result), a protocol
// error, or, once the steps are done, their state for the task to resume
// from.
func (s *Server) stepsBeforeTask(ctx context.Context, t *tool, req *mcp.CallToolRequest) (*mcp.CallToolResult, *roundState, error) {
	caps := req.ClientCapabilities()
	if err := missingCapabilities(t.requires, caps); err != nil {
		return nil, nil, err
	}
	args, who, err := s.prepare(ctx, t, req.Params.Arguments)
	if err != nil {
		return errorResult(err.Error()), nil, nil
	}
	round := modernRound(modernVersion, caps, req.Params.InputResponses, req.Params.RequestState)
	if !round.begin(ctx, s, "tool", t.def.Name, args) {
		return nil, nil, round.protoErr
	}
	n := &notifier{req: req, logger: t.def.Name, levels: s.logLevels, caps: caps}
	data := map[string]any{"args": args, authName: who}
	upTo := t.taskAfter + 1
	err = s.runSteps(ctx, t.def.Name, t.steps[:upTo], data, n, round)
	var protoErr *jsonrpc.Error
	switch {
	case errors.Is(err, errInputRequired):
		return s.mask.ToolResult(&mcp.CallToolResult{InputRequests: round.asked, RequestState: round.stateToken(s)}), nil, nil
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
