// Package task keeps the state of long tool calls that clients poll instead
// of waiting for: MCP tasks. A Store holds each task as a plain, serialisable
// record, so that it outlives the request that started it and, with a shared
// store, the replica; a Manager runs the work in this process, moves tasks
// through their states, answers waiters and forgets expired tasks. The wire
// shapes of both protocol eras (2025-11-25 experimental tasks and the
// 2026-07-28 io.modelcontextprotocol/tasks extension) live in package
// runtime; nothing here depends on MCP.
package task

import (
	"encoding/json"
	"errors"
	"time"
)

// Status is where a task is in its life.
type Status string

// The states of a task: working and input_required may alternate; the
// others are terminal and final.
const (
	Working       Status = "working"
	InputRequired Status = "input_required"
	Completed     Status = "completed"
	Failed        Status = "failed"
	Cancelled     Status = "cancelled"
)

// Terminal reports whether a task in status s is done for good.
func (s Status) Terminal() bool {
	return s == Completed || s == Failed || s == Cancelled
}

// Error is the JSON-RPC error a task ended with.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Task is one task as a store keeps it. Every field survives a JSON round
// trip, so that a store may keep tasks outside the process.
type Task struct {
	// ID is unguessable: 130 random bits.
	ID string `json:"id"`
	// Owner is who may see and steer the task: an authenticated subject,
	// a session, or nobody in particular (see Owner).
	Owner string `json:"owner"`
	// Seq orders an owner's tasks for listing; the store sets it.
	Seq           int64     `json:"seq"`
	Status        Status    `json:"status"`
	StatusMessage string    `json:"statusMessage,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	// TTL is how long the task is kept from its creation.
	TTL time.Duration `json:"ttl"`
	// PollInterval is how often clients are asked to poll.
	PollInterval time.Duration `json:"pollInterval"`
	// Method and Params are the request the task runs, as received.
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// Result is the request's result, verbatim, once completed.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the request's JSON-RPC error, once failed.
	Error *Error `json:"error,omitempty"`
	// InputRequests are the questions to the client not yet answered, by key.
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	// InputResponses are answers received and not yet taken by the work.
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// Asked are all keys ever asked: a key is never reused.
	Asked []string `json:"asked,omitempty"`
}

// ExpiresAt is when the task may be forgotten.
func (t *Task) ExpiresAt() time.Time { return t.CreatedAt.Add(t.TTL) }

// clone returns a deep copy of t: stores hand out copies only.
func (t *Task) clone() *Task {
	b, _ := json.Marshal(t) // a Task always marshals
	var c Task
	_ = json.Unmarshal(b, &c)
	return &c
}

// Errors of stores and managers, compared with errors.Is.
var (
	// ErrNotFound is an unknown, expired or foreign task.
	ErrNotFound = errors.New("task not found")
	// ErrLimit is a caller holding as many tasks as allowed.
	ErrLimit = errors.New("too many tasks")
	// ErrTerminal is an attempt to cancel a finished task.
	ErrTerminal = errors.New("task already finished")
)
