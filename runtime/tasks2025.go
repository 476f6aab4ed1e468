package runtime

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/task"
)

// The 2025-11-25 experimental tasks (basic/utilities/tasks): the client
// asks for a task with params.task, and fetches the result with
// tasks/result.

// tasksPageSize is how many tasks one tasks/list page holds.
const tasksPageSize = 50

// taskCapabilities is the server's capabilities.tasks.
func taskCapabilities() map[string]any {
	return map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
}

// callAsTask2025 answers a 2025-11-25 tools/call: a task when the client
// asks for one and the tool allows it; -32601 when the tool cannot run as
// asked (the spec's tool-level negotiation).
func (s *Server) callAsTask2025(ctx context.Context, t *tool, req *mcp.CallToolRequest) (mcp.Result, bool, error) {
	asked := req.Params.Task
	switch {
	case asked == nil && t.task == taskRequired:
		return nil, true, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("tool %q must be called as a task: add params.task", t.def.Name)}
	case asked == nil:
		return nil, false, nil
	case t.task == "":
		return nil, true, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
			Message: fmt.Sprintf("tool %q does not run as a task: call it without params.task", t.def.Name)}
	}
	var ttl time.Duration
	if asked.TTL != nil {
		ttl = time.Duration(*asked.TTL) * time.Millisecond
	}
	tk, err := s.startTask(ctx, t, req, ttl, false, nil)
	if err != nil {
		return nil, true, err
	}
	return &wireResult{v: map[string]any{"task": task2025(tk)}}, true, nil
}

// task2025 is a task on the 2025-11-25 wire.
func task2025(t *task.Task) map[string]any { return taskFields(t, "ttl", "pollInterval") }

// taskFields are a task's fields on the wire, under the era's names of
// its TTL and poll interval (milliseconds both).
func taskFields(t *task.Task, ttl, poll string) map[string]any {
	m := map[string]any{"taskId": t.ID, "status": t.Status,
		"createdAt": t.CreatedAt.Format(time.RFC3339Nano), "lastUpdatedAt": t.UpdatedAt.Format(time.RFC3339Nano),
		ttl: t.TTL.Milliseconds(), poll: t.PollInterval.Milliseconds()}
	if t.StatusMessage != "" {
		m["statusMessage"] = t.StatusMessage
	}
	return m
}

// statusNotifier sends notifications/tasks/status to the session that
// started a task.
func statusNotifier(ss *mcp.ServerSession) func(*task.Task) {
	if ss == nil {
		return nil
	}
	return func(t *task.Task) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ss.SendNotification(ctx, "notifications/tasks/status", task2025(t)) // optional: a gone client misses it
	}
}

func (s *Server) taskGet(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if modernRequest(p.Meta) {
		return s.taskGet2026(ctx, ss, p)
	}
	t, err := s.tasks.Get(ctx, taskOwner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, taskError(err)
	}
	return &wireResult{v: task2025(t)}, nil
}

// taskResult waits until the task is done, then answers exactly what the
// call would have: its result, marked as the task's, or its error.
func (s *Server) taskResult(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if modernRequest(p.Meta) {
		return nil, notIn2026("tasks/result")
	}
	t, err := s.tasks.Wait(ctx, taskOwner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, taskError(err)
	}
	if t.Error != nil {
		return nil, &jsonrpc.Error{Code: t.Error.Code, Message: t.Error.Message, Data: t.Error.Data}
	}
	v := map[string]any{}
	if t.Result != nil {
		if err := json.Unmarshal(t.Result, &v); err != nil {
			return nil, err
		}
	} else { // cancelled before it produced anything
		v = map[string]any{"content": []any{map[string]any{"type": "text", "text": t.StatusMessage}}, "isError": true}
	}
	r := &wireResult{v: v}
	r.Meta = mcp.Meta{relatedTaskKey: map[string]any{"taskId": t.ID}}
	return r, nil
}

func (s *Server) taskList(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if modernRequest(p.Meta) {
		return nil, notIn2026("tasks/list")
	}
	var after int64
	if p.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		if after, err = strconv.ParseInt(string(b), 10, 64); err != nil || after <= 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
	}
	ts, err := s.tasks.List(ctx, taskOwner(ctx, ss), after, tasksPageSize+1)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if len(ts) > tasksPageSize {
		ts = ts[:tasksPageSize]
		out["nextCursor"] = base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(ts[len(ts)-1].Seq, 10)))
	}
	list := make([]any, len(ts))
	for i, t := range ts {
		list[i] = task2025(t)
	}
	out["tasks"] = list
	return &wireResult{v: out}, nil
}

func (s *Server) taskCancel(ctx context.Context, ss *mcp.ServerSession, p *taskParams) (*wireResult, error) {
	if modernRequest(p.Meta) {
		return s.taskCancel2026(ctx, ss, p)
	}
	t, err := s.tasks.Cancel(ctx, taskOwner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, taskError(err)
	}
	s.logger.Info("task cancelled", "task", t.ID)
	return &wireResult{v: task2025(t)}, nil
}
