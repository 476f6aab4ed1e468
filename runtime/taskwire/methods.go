package taskwire

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/task"
)

// methods answers the tasks/* methods from one task manager.
type methods struct {
	tasks  *task.Manager
	logger *slog.Logger
}

// Names are the methods of tasks, both eras.
var Names = []string{"tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update"}

// Register registers the tasks/* methods of both eras on srv, answered
// from tasks; logger records cancellations.
func Register(srv *mcp.Server, tasks *task.Manager, logger *slog.Logger) {
	s := &methods{tasks: tasks, logger: logger}
	for i, h := range []func(context.Context, *mcp.ServerSession, *params) (*Result, error){
		s.get, s.result, s.list, s.cancel, s.update,
	} {
		if err := mcp.AddReceivingCustomMethod(srv, Names[i], h); err != nil {
			panic(err) // only if the SDK grew a method of that name: a programmer's error
		}
	}
}

func (s *methods) get(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if Modern(p.Meta) {
		return s.get2026(ctx, ss, p)
	}
	t, err := s.tasks.Get(ctx, Owner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, Error(err)
	}
	return &Result{v: Task2025(t)}, nil
}

// result waits until the task is done, then answers exactly what the
// call would have: its result, marked as the task's, or its error.
func (s *methods) result(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if Modern(p.Meta) {
		return nil, NotIn2026("tasks/result")
	}
	t, err := s.tasks.Wait(ctx, Owner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, Error(err)
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
	r := &Result{v: v}
	r.Meta = mcp.Meta{RelatedTaskKey: map[string]any{"taskId": t.ID}}
	return r, nil
}

func (s *methods) list(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if Modern(p.Meta) {
		return nil, NotIn2026("tasks/list")
	}
	var after int64
	if p.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		if after, err = strconv.ParseInt(string(b), 10, 64); err != nil || after <= 0 {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
		}
	}
	ts, err := s.tasks.List(ctx, Owner(ctx, ss), after, PageSize+1)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if len(ts) > PageSize {
		ts = ts[:PageSize]
		out["nextCursor"] = base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(ts[len(ts)-1].Seq, 10)))
	}
	list := make([]any, len(ts))
	for i, t := range ts {
		list[i] = Task2025(t)
	}
	out["tasks"] = list
	return &Result{v: out}, nil
}

func (s *methods) cancel(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if Modern(p.Meta) {
		return s.cancel2026(ctx, ss, p)
	}
	t, err := s.tasks.Cancel(ctx, Owner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, Error(err)
	}
	s.logger.Info("task cancelled", "task", t.ID)
	return &Result{v: Task2025(t)}, nil
}

func (s *methods) get2026(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if !Declares(p.Meta) {
		return nil, Missing()
	}
	t, err := s.tasks.Get(ctx, Owner(ctx, ss), p.TaskID)
	if err != nil {
		return nil, Error(err)
	}
	return &Result{v: detailed2026(t)}, nil
}

// update records answers to a task's input requests (2026 only).
func (s *methods) update(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if !Modern(p.Meta) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "tasks/update is part of the 2026-07-28 tasks extension"}
	}
	if !Declares(p.Meta) {
		return nil, Missing()
	}
	if err := s.tasks.Respond(ctx, Owner(ctx, ss), p.TaskID, p.InputResponses); err != nil {
		return nil, Error(err)
	}
	return &Result{v: map[string]any{"resultType": "complete"}}, nil
}

// cancel2026 acknowledges a cancellation, also of a finished task.
func (s *methods) cancel2026(ctx context.Context, ss *mcp.ServerSession, p *params) (*Result, error) {
	if !Declares(p.Meta) {
		return nil, Missing()
	}
	if _, err := s.tasks.Cancel(ctx, Owner(ctx, ss), p.TaskID); err != nil && !errors.Is(err, task.ErrTerminal) {
		return nil, Error(err)
	}
	return &Result{v: map[string]any{"resultType": "complete"}}, nil
}
