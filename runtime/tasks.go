package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools marked `task:` run as tasks (package runtime/task keeps them). This
// file holds what both protocol eras share: when a call becomes a task, who
// owns it, and the task's work. tasks2025.go speaks the 2025-11-25
// experimental methods, tasks2026.go the io.modelcontextprotocol/tasks
// extension of 2026-07-28.

// Values of a tool's `task:`.
const (
	taskOptional = "optional"
	taskRequired = "required"
)

// relatedTaskKey marks messages that belong to a task (2025-11-25).
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// taskOptions reads server.tasks.
func (b *builder) taskOptions(f *load.File, t *spec.Tasks) {
	if t == nil {
		return
	}
	if t.MaxPerCaller < 0 {
		b.errorf(f, "server.tasks.max_per_caller", "max_per_caller must be at least 1, got %d", t.MaxPerCaller)
	}
	for path, d := range map[string]spec.Duration{"ttl": t.TTL, "poll_interval": t.PollInterval} {
		if d < 0 {
			b.errorf(f, "server.tasks."+path, "%s must be positive", path)
		}
	}
	o := &b.srv.taskOpts
	o.TTL, o.PollInterval, o.MaxPerOwner = time.Duration(t.TTL), time.Duration(t.PollInterval), t.MaxPerCaller
}

// taskSupport declares how a built tool may run as a task.
func (tl *tool) taskSupport(mode string) {
	tl.task = mode
	if mode != "" {
		tl.def.Execution = &mcp.ToolExecution{TaskSupport: mode}
	}
}

// startTasks creates the task manager when a tool runs as a task.
func (s *Server) startTasks(store task.Store) {
	for _, t := range s.tools {
		if t.task != "" {
			s.taskOpts.Store = store
			s.tasks = task.NewManager(s.taskOpts)
			s.closers = append(s.closers, s.tasks)
			return
		}
	}
}

// taskOwner is who a task belongs to: the authenticated subject, else the
// session. Without either (stdio, or sessionless HTTP without auth), the
// unguessable task ID is all that guards a task.
func taskOwner(ctx context.Context, ss *mcp.ServerSession) string {
	if c := auth.CallerFrom(ctx); c != nil {
		return "subject:" + c.Subject
	}
	if ss != nil && ss.ID() != "" {
		return "session:" + ss.ID()
	}
	return "anyone"
}

// modernRequest reports whether a request follows 2026-07-28 (sessionless,
// with its protocol version in _meta).
func modernRequest(meta map[string]any) bool {
	_, ok := meta[mcp.MetaKeyProtocolVersion]
	return ok
}

// callAsTask answers a tools/call that runs as a task, or refuses one that
// cannot; ok is false for a call to run as usual.
func (s *Server) callAsTask(ctx context.Context, req *mcp.CallToolRequest) (res mcp.Result, ok bool, err error) {
	if s.tasks == nil || req.Params == nil {
		return nil, false, nil
	}
	t := s.toolIndex[req.Params.Name]
	if t == nil {
		return nil, false, nil
	}
	if modernRequest(req.Params.Meta) {
		return s.callAsTask2026(ctx, t, req)
	}
	return s.callAsTask2025(ctx, t, req)
}

// startTask starts a call of tool t as a task.
func (s *Server) startTask(ctx context.Context, t *tool, req *mcp.CallToolRequest, ttl time.Duration, modern bool) (*task.Task, error) {
	owner := taskOwner(ctx, req.Session)
	params, _ := json.Marshal(req.Params)
	var changed func(*task.Task)
	if !modern {
		changed = statusNotifier(req.Session)
	}
	ts := &taskSession{notifier: &notifier{req: req, logger: t.def.Name, levels: s.logLevels, caps: req.ClientCapabilities()},
		modern: modern}
	tk, err := s.tasks.Start(ctx, owner, "tools/call", params, ttl, s.taskWork(t, req.Params.Arguments, ts), changed)
	if errors.Is(err, task.ErrLimit) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("this caller holds %d tasks, the most allowed; cancel some or wait until they expire", s.tasks.Options().MaxPerOwner)}
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "creating the task: " + s.redact.apply(err.Error())}
	}
	s.logger.Info("task created", "task", tk.ID, "tool", t.def.Name, "owner", owner)
	return tk, nil
}

// taskWork runs tool t for a task. In 2025-11-25, a tool error fails the
// task; in 2026-07-28 it completes it with an error result.
func (s *Server) taskWork(t *tool, raw json.RawMessage, ts *taskSession) task.Work {
	return func(ctx context.Context, h *task.Handle) task.Outcome {
		ts.h = h
		res := s.call(ctx, t, raw, ts, nil) // a task asks through its session or tasks/update, not by input rounds
		if ts.failed != nil {               // the task failed, not the tool
			return task.Outcome{Error: ts.failed, Message: ts.failed.Message}
		}
		if res.Content == nil {
			res.Content = []mcp.Content{}
		}
		b, err := json.Marshal(res)
		if err != nil {
			return task.Outcome{Error: &task.Error{Code: jsonrpc.CodeInternalError, Message: "encoding the result: " + err.Error()}}
		}
		out := task.Outcome{Result: b}
		if res.IsError && !ts.modern {
			out.Failed, out.Message = true, contentText(res.Content)
		}
		return out
	}
}

// taskSession is the session a task's steps talk to. For 2025-11-25
// clients, questions go to the session that started the task, the task
// input_required meanwhile; for 2026-07-28 clients they wait on the task
// as input requests, answered through tasks/update, and logs and progress
// are dropped (the extension has none for tasks).
type taskSession struct {
	*notifier
	h      *task.Handle
	modern bool
	asked  int
	// failed is the JSON-RPC error that ended the task (2026), if any.
	failed *task.Error
}

func (ts *taskSession) Enabled(ctx context.Context, level slog.Level) bool {
	return !ts.modern && ts.notifier.Enabled(ctx, level)
}

func (ts *taskSession) Progress(ctx context.Context, progress, total float64, msg string) {
	if !ts.modern {
		ts.notifier.Progress(ctx, progress, total, msg)
	}
}

func (ts *taskSession) logAt(ctx context.Context, level mcp.LoggingLevel, logger string, data any) {
	if !ts.modern {
		ts.notifier.logAt(ctx, level, logger, data)
	}
}

func (ts *taskSession) closeStream(time.Duration) {}

func (ts *taskSession) elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	q := question{method: "elicitation/create", prefix: "elicit", capability: "elicitation",
		declared: ts.caps != nil && ts.caps.Elicitation != nil, waiting: "waiting for the user's answer", params: p}
	return askClient(ctx, ts, q, &p.Meta, func() (*mcp.ElicitResult, error) { return ts.notifier.elicit(ctx, p) })
}

func (ts *taskSession) createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	q := question{method: "sampling/createMessage", prefix: "sample", capability: "sampling",
		declared: ts.caps != nil && ts.caps.Sampling != nil, waiting: "waiting for the client's model", params: p}
	return askClient(ctx, ts, q, &p.Meta, func() (*mcp.CreateMessageResult, error) { return ts.notifier.createMessage(ctx, p) })
}

// question is a request to the client a task's step makes.
type question struct {
	method, prefix string // the request's method; its input request keys' prefix
	capability     string // the client capability it needs
	declared       bool   // the client declared it
	waiting        string // the status message while waiting (2025)
	params         any
}

// askClient asks the client what a step needs: as an input request on a
// 2026 task, answered with tasks/update; for 2025-11-25, through the
// session that started the task (legacy), marked as the task's, the task
// input_required meanwhile.
func askClient[R any](ctx context.Context, ts *taskSession, q question, meta *mcp.Meta, legacy func() (*R, error)) (*R, error) {
	if ts.modern {
		if !q.declared {
			return nil, ts.missing(q.capability)
		}
		var res R
		return &res, ts.ask(ctx, q.method, q.prefix, q.params, &res)
	}
	*meta = relatedTask(*meta, ts.h.ID())
	defer ts.h.SetStatus(ctx, task.Working, "")
	ts.h.SetStatus(ctx, task.InputRequired, q.waiting)
	return legacy()
}

// missing fails the task for want of a client capability (-32021), as a
// call without a task would have failed: never an input request the client
// cannot answer.
func (ts *taskSession) missing(capability string) error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{capability: map[string]any{}}})
	ts.failed = &task.Error{Code: codeMissingCapability, Message: "Missing required client capability: " + capability, Data: data}
	return errors.New(ts.failed.Message)
}

// ask puts a question on the task and decodes its answer into res.
func (ts *taskSession) ask(ctx context.Context, method, prefix string, params, res any) error {
	ts.asked++
	q, err := json.Marshal(map[string]any{"method": method, "params": params})
	if err != nil {
		return err
	}
	a, err := ts.h.Ask(ctx, fmt.Sprintf("%s_%d", prefix, ts.asked), q)
	if err != nil {
		return err
	}
	return json.Unmarshal(a, res)
}

// relatedTask adds the related-task mark to a message's _meta.
func relatedTask(m mcp.Meta, id string) mcp.Meta {
	if m == nil {
		m = mcp.Meta{}
	}
	m[relatedTaskKey] = map[string]any{"taskId": id}
	return m
}

// taskParams are the params of every tasks/* method.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId,omitempty"`
	Cursor         string                     `json:"cursor,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// wireResult is a result whose JSON is built by hand: the shapes of tasks
// differ between eras, and tasks/result is the original result verbatim.
type wireResult struct {
	mcp.ResultBase
	v map[string]any
}

// MarshalJSON writes the result, with the _meta set on it.
func (r *wireResult) MarshalJSON() ([]byte, error) {
	if len(r.Meta) > 0 {
		meta, _ := r.v["_meta"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
		}
		for k, v := range r.Meta {
			meta[k] = v
		}
		r.v["_meta"] = meta
	}
	return json.Marshal(r.v)
}

// taskError is the JSON-RPC error for a task that cannot be found or changed.
func taskError(err error) error {
	switch {
	case errors.Is(err, task.ErrNotFound):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Failed to retrieve task: Task not found"}
	case errors.Is(err, task.ErrTerminal):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Cannot cancel task: it has already finished"}
	}
	return err
}

// taskMethods are the methods of tasks, both eras.
var taskMethods = []string{"tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update"}

// ExtraMethods lists the JSON-RPC methods the server serves beyond the
// go-sdk's own: those of tasks, when a tool runs as a task.
func (s *Server) ExtraMethods() []string {
	if s.tasks == nil {
		return nil
	}
	return taskMethods
}

// addTaskMethods registers the tasks/* methods.
func (s *Server) addTaskMethods(srv *mcp.Server) {
	for i, h := range []func(context.Context, *mcp.ServerSession, *taskParams) (*wireResult, error){
		s.taskGet, s.taskResult, s.taskList, s.taskCancel, s.taskUpdate,
	} {
		if err := mcp.AddReceivingCustomMethod(srv, taskMethods[i], h); err != nil {
			panic(err) // only if the SDK grew a method of that name: a programmer's error
		}
	}
}
