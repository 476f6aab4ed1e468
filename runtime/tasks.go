package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
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

// callAsTask answers a tools/call that runs as a task, or refuses one that
// cannot; ok is false for a call to run as usual.
func (s *Server) callAsTask(ctx context.Context, req *mcp.CallToolRequest) (res mcp.Result, ok bool, err error) {
	if s.plan.Tasks == nil || req.Params == nil {
		return nil, false, nil
	}
	t := s.plan.ToolIndex[req.Params.Name]
	if t == nil {
		return nil, false, nil
	}
	if taskwire.Modern(req.Params.Meta) {
		return s.callAsTask2026(ctx, t, req)
	}
	return s.callAsTask2025(ctx, t, req)
}

// startTask starts a call of tool t as a task. carried holds the answers
// a 2026 call gathered before the task started (the steps up to the
// tool's task_after), nil when none.
func (s *Server) startTask(ctx context.Context, t *plan.Tool, req *mcp.CallToolRequest, ttl time.Duration, modern bool, carried *reqstate.State) (*task.Task, error) {
	owner := taskwire.Owner(ctx, req.Session)
	params, _ := json.Marshal(req.Params)
	var changed func(*task.Task)
	if !modern {
		changed = taskwire.StatusNotifier(req.Session)
	}
	caps := req.ClientCapabilities()
	ts := &taskSession{notifier: &notifier{req: req, logger: t.Def.Name, levels: s.plan.LogLevels, caps: caps},
		modern: modern}
	var work task.Work
	if modern {
		work = s.taskWork2026(t, req.Params.Arguments, ts, carried)
	} else {
		work = s.taskWork(t, req.Params.Arguments, ts)
	}
	tk, err := s.plan.Tasks.Start(ctx, owner, "tools/call", params, ttl, work, changed)
	if errors.Is(err, task.ErrLimit) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("this caller holds %d tasks, the most allowed; cancel some or wait until they expire", s.plan.Tasks.Options().MaxPerOwner)}
	}
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "creating the task: " + s.plan.Redact.Apply(err.Error())}
	}
	s.plan.Logger.Info("task created", "task", tk.ID, "tool", t.Def.Name, "owner", owner)
	return tk, nil
}

// taskWork runs tool t for a 2025-11-25 task, whose steps ask the client
// through the session that started it. A tool error fails the task.
func (s *Server) taskWork(t *plan.Tool, raw json.RawMessage, ts *taskSession) task.Work {
	return func(ctx context.Context, h *task.Handle) task.Outcome {
		ts.h = h
		return taskOutcome(s.call(ctx, t, raw, ts, nil), true)
	}
}

// taskWork2026 runs tool t for a 2026-07-28 task. Its steps ask the client
// as in a call without a task (mrtr.go), except that the server keeps the
// state: the questions of a round wait on the task together, the client
// answers them with tasks/update (one at a time if it likes), and the next
// round resumes where the last stopped. A tool error completes the task
// with an error result; a protocol error (a capability the client did not
// declare, an answer of the wrong kind) fails it.
func (s *Server) taskWork2026(t *plan.Tool, raw json.RawMessage, ts *taskSession, carried *reqstate.State) task.Work {
	return func(ctx context.Context, h *task.Handle) task.Outcome {
		ts.h = h
		if err := missingCapabilities(t.Requires, ts.caps); err != nil {
			return taskFailure(err)
		}
		round := &inputRound{caps: ts.caps, asked: mcp.InputRequestMap{}, carried: carried}
		for {
			res := s.call(ctx, t, raw, ts, round)
			if round.protoErr != nil {
				return taskFailure(round.protoErr)
			}
			if len(res.InputRequests) == 0 {
				return taskOutcome(res, false)
			}
			responses, err := askTask(ctx, h, res.InputRequests)
			if err != nil {
				if ctx.Err() != nil {
					return taskOutcome(errorResult("canceled: "+err.Error()), false)
				}
				return taskFailure(err)
			}
			round = round.then(responses)
		}
	}
}

// askTask puts a round's questions on the task and waits for all answers.
func askTask(ctx context.Context, h *task.Handle, asked mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	requests := make(map[string]json.RawMessage, len(asked))
	for k, v := range asked {
		b, err := json.Marshal(mcp.InputRequestMap{k: v})
		if err != nil {
			return nil, err
		}
		var one map[string]json.RawMessage
		_ = json.Unmarshal(b, &one)
		requests[k] = one[k]
	}
	answers, err := h.AskAll(ctx, requests)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(answers)
	var responses mcp.InputResponseMap
	if err := json.Unmarshal(b, &responses); err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "inputResponses: " + err.Error()}
	}
	return responses, nil
}

// taskFailure fails a task with a JSON-RPC error.
func taskFailure(err error) task.Outcome {
	e := &task.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		e.Code, e.Message, e.Data = rpc.Code, rpc.Message, rpc.Data
	}
	return task.Outcome{Error: e, Message: e.Message}
}

// taskOutcome is the outcome of a task whose tool answered res; a tool
// error fails the task when failOnError (2025-11-25).
func taskOutcome(res *mcp.CallToolResult, failOnError bool) task.Outcome {
	if res.Content == nil {
		res.Content = []mcp.Content{}
	}
	b, err := json.Marshal(res)
	if err != nil {
		return task.Outcome{Error: &task.Error{Code: jsonrpc.CodeInternalError, Message: "encoding the result: " + err.Error()}}
	}
	out := task.Outcome{Result: b}
	if res.IsError && failOnError {
		out.Failed, out.Message = true, contentText(res.Content)
	}
	return out
}

// taskSession is the session a task's steps talk to. For 2025-11-25
// clients, questions go to the session that started the task, the task
// input_required meanwhile; for 2026-07-28 clients the questions are input
// requests of the task (taskWork2026) and never come here, and logs and
// progress are dropped (the extension has none for tasks).
type taskSession struct {
	*notifier
	h      *task.Handle
	modern bool
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
	p.Meta = ts.asking(ctx, p.Meta, "waiting for the user's answer")
	defer ts.h.SetStatus(ctx, task.Working, "")
	return ts.notifier.elicit(ctx, p)
}

func (ts *taskSession) createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	p.Meta = ts.asking(ctx, p.Meta, "waiting for the client's model")
	defer ts.h.SetStatus(ctx, task.Working, "")
	return ts.notifier.createMessage(ctx, p)
}

// asking marks a request to the session as the task's, the task
// input_required while it waits (2025-11-25).
func (ts *taskSession) asking(ctx context.Context, m mcp.Meta, waiting string) mcp.Meta {
	ts.h.SetStatus(ctx, task.InputRequired, waiting)
	return taskwire.RelatedTask(m, ts.h.ID())
}

// ExtraMethods lists the JSON-RPC methods the server serves beyond the
// go-sdk's own: those of tasks, when a tool runs as a task, and those of
// skills.
func (s *Server) ExtraMethods() []string {
	var out []string
	if s.plan.Tasks != nil {
		out = append(out, taskwire.Names...)
	}
	if s.live != nil || len(s.plan.Skills) > 0 { // a reload may bring skills
		out = append(out, skillMethods...)
	}
	return out
}
