// Package taskwire speaks tasks on the wire: the tasks/* methods of both
// protocol eras (the 2025-11-25 experimental tasks and the 2026-07-28
// io.modelcontextprotocol/tasks extension) answered from a task.Manager,
// and the shapes, errors and marks of tasks in messages. Package
// runtime/task keeps the tasks; the runtime decides which calls become one.
package taskwire

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/task"
)

// RelatedTaskKey marks messages that belong to a task (2025-11-25).
const RelatedTaskKey = "io.modelcontextprotocol/related-task"

// Owner is who a task belongs to: the authenticated subject, else the
// session. Without either (stdio, or sessionless HTTP without auth), the
// unguessable task ID is all that guards a task.
func Owner(ctx context.Context, ss *mcp.ServerSession) string {
	if c := auth.CallerFrom(ctx); c != nil {
		return "subject:" + c.Subject
	}
	if ss != nil && ss.ID() != "" {
		return "session:" + ss.ID()
	}
	return "anyone"
}

// Modern reports whether a request follows 2026-07-28 (sessionless,
// with its protocol version in _meta).
func Modern(meta map[string]any) bool {
	_, ok := meta[mcp.MetaKeyProtocolVersion]
	return ok
}

// RelatedTask adds the related-task mark to a message's _meta.
func RelatedTask(m mcp.Meta, id string) mcp.Meta {
	if m == nil {
		m = mcp.Meta{}
	}
	m[RelatedTaskKey] = map[string]any{"taskId": id}
	return m
}

// params are the params of every tasks/* method.
type params struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId,omitempty"`
	Cursor         string                     `json:"cursor,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// Result is a result whose JSON is built by hand: the shapes of tasks
// differ between eras, and tasks/result is the original result verbatim.
type Result struct {
	mcp.ResultBase
	v map[string]any
}

// NewResult returns the result whose JSON is v.
func NewResult(v map[string]any) *Result { return &Result{v: v} }

// MarshalJSON writes the result, with the _meta set on it.
func (r *Result) MarshalJSON() ([]byte, error) {
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

// Error is the JSON-RPC error for a task that cannot be found or changed.
func Error(err error) error {
	switch {
	case errors.Is(err, task.ErrNotFound):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Failed to retrieve task: Task not found"}
	case errors.Is(err, task.ErrTerminal):
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Cannot cancel task: it has already finished"}
	}
	return err
}

// PageSize is how many tasks one tasks/list page holds.
const PageSize = 50

// Capabilities is the server's capabilities.tasks.
func Capabilities() map[string]any {
	return map[string]any{"list": map[string]any{}, "cancel": map[string]any{},
		"requests": map[string]any{"tools": map[string]any{"call": map[string]any{}}}}
}

// Task2025 is a task on the 2025-11-25 wire.
func Task2025(t *task.Task) map[string]any { return fields(t, "ttl", "pollInterval") }

// fields are a task's fields on the wire, under the era's names of
// its TTL and poll interval (milliseconds both).
func fields(t *task.Task, ttl, poll string) map[string]any {
	m := map[string]any{"taskId": t.ID, "status": t.Status,
		"createdAt": t.CreatedAt.Format(time.RFC3339Nano), "lastUpdatedAt": t.UpdatedAt.Format(time.RFC3339Nano),
		ttl: t.TTL.Milliseconds(), poll: t.PollInterval.Milliseconds()}
	if t.StatusMessage != "" {
		m["statusMessage"] = t.StatusMessage
	}
	return m
}

// StatusNotifier sends notifications/tasks/status to the session that
// started a task.
func StatusNotifier(ss *mcp.ServerSession) func(*task.Task) {
	if ss == nil {
		return nil
	}
	return func(t *task.Task) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ss.SendNotification(ctx, "notifications/tasks/status", Task2025(t)) // optional: a gone client misses it
	}
}

// Extension names the extension.
const Extension = "io.modelcontextprotocol/tasks"

// CodeMissingCapability is -32021: the request lacks a client capability.
const CodeMissingCapability = mcp.CodeMissingRequiredClientCapabilities

// Discover advertises the extension in server/discover, where the
// 2025-11-25 capabilities.tasks must not appear.
func Discover(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if d, ok := res.(*mcp.DiscoverResult); ok && err == nil && d.Capabilities != nil {
			d.Capabilities.Tasks = nil // a copy made for this answer
			d.Capabilities.AddExtension(Extension, nil)
		}
		return res, err
	}
}

// Declares reports whether a 2026 request declares the extension.
func Declares(meta map[string]any) bool {
	caps, _ := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[Extension]
	return ok
}

// Missing is the error for a client that must declare the extension.
func Missing() error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{
		"extensions": map[string]any{Extension: map[string]any{}}}})
	return &jsonrpc.Error{Code: CodeMissingCapability, Message: "Missing required client capability: " + Extension, Data: data}
}

// NotIn2026 is the error for a 2025-11-25 method called at 2026-07-28.
func NotIn2026(method string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: method + " is not part of the tasks extension"}
}

// Task2026 is a task on the 2026-07-28 wire, with its result, error or
// input requests inlined.
func Task2026(t *task.Task) map[string]any { return fields(t, "ttlMs", "pollIntervalMs") }

// detailed2026 is a task as tasks/get answers it.
func detailed2026(t *task.Task) map[string]any {
	m := Task2026(t)
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
