package task

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Handle is what a task's work sees of its task.
type Handle struct {
	m       *Manager
	id      string
	changed func(*Task)
}

// ID is the task's ID.
func (h *Handle) ID() string { return h.id }

// changedTo announces the task's new state.
func (h *Handle) changedTo(t *Task) {
	h.m.announce(h.id)
	if h.changed != nil {
		h.changed(t)
	}
}

// update changes the task and announces it.
func (h *Handle) update(ctx context.Context, fn func(*Task) error) (*Task, error) {
	t, err := h.m.store.Update(context.WithoutCancel(ctx), h.id, func(t *Task) error {
		if t.Status.Terminal() {
			return ErrTerminal
		}
		if err := fn(t); err != nil {
			return err
		}
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err == nil {
		h.changedTo(t)
	}
	return t, err
}

// SetStatus moves the task between working and input_required, with a
// status message (input needed through the session, in the 2025-11-25 way).
func (h *Handle) SetStatus(ctx context.Context, s Status, msg string) {
	_, _ = h.update(ctx, func(t *Task) error {
		t.Status, t.StatusMessage = s, msg
		return nil
	})
}

// Ask puts a request to the client on the task under key, moves the task
// to input_required and waits for the answer (given through Respond).
// Keys are unique over the task's life.
func (h *Handle) Ask(ctx context.Context, key string, request json.RawMessage) (json.RawMessage, error) {
	answers, err := h.AskAll(ctx, map[string]json.RawMessage{key: request})
	return answers[key], err
}

// AskAll puts several requests to the client on the task at once, moves
// the task to input_required and waits until every one is answered. The
// client may answer them one at a time: an answered request leaves the
// task's input requests at once, and the task stays input_required while
// another is pending. Keys are unique over the task's life.
func (h *Handle) AskAll(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	_, err := h.update(ctx, func(t *Task) error {
		for key := range requests {
			if slices.Contains(t.Asked, key) {
				return fmt.Errorf("input request key %q was used before", key)
			}
		}
		if t.InputRequests == nil {
			t.InputRequests = map[string]json.RawMessage{}
		}
		for key, request := range requests {
			t.Asked = append(t.Asked, key)
			t.InputRequests[key] = request
		}
		t.Status = InputRequired
		return nil
	})
	if err != nil {
		return nil, err
	}
	answers := make(map[string]json.RawMessage, len(requests))
	for {
		ch := h.m.watchCh(h.id)
		if err := h.take(ctx, requests, answers); err != nil {
			return nil, err
		}
		if len(answers) == len(requests) {
			return answers, nil
		}
		if err := h.m.sleep(ctx, ch, time.Second); err != nil {
			return nil, err
		}
	}
}

// take moves the answers that came to requests into answers.
func (h *Handle) take(ctx context.Context, requests, answers map[string]json.RawMessage) error {
	_, err := h.update(ctx, func(t *Task) error {
		got := false
		for key := range requests {
			a, ok := t.InputResponses[key]
			if !ok {
				continue
			}
			answers[key], got = a, true
			delete(t.InputResponses, key)
		}
		if !got {
			return errNoAnswer
		}
		return nil
	})
	switch {
	case err == errNoAnswer:
		return nil
	case err == ErrTerminal || err == ErrNotFound:
		return ErrInputCancelled
	}
	return err
}

var errNoAnswer = fmt.Errorf("no answer yet")
