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
	_, err := h.update(ctx, func(t *Task) error {
		if slices.Contains(t.Asked, key) {
			return fmt.Errorf("input request key %q was used before", key)
		}
		t.Asked = append(t.Asked, key)
		if t.InputRequests == nil {
			t.InputRequests = map[string]json.RawMessage{}
		}
		t.InputRequests[key] = request
		t.Status = InputRequired
		return nil
	})
	if err != nil {
		return nil, err
	}
	for {
		ch := h.m.watchCh(h.id)
		answer, done, err := h.take(ctx, key)
		if done || err != nil {
			return answer, err
		}
		if err := h.m.sleep(ctx, ch, time.Second); err != nil {
			return nil, err
		}
	}
}

// take takes the answer to key if it came.
func (h *Handle) take(ctx context.Context, key string) (json.RawMessage, bool, error) {
	var answer json.RawMessage
	_, err := h.update(ctx, func(t *Task) error {
		a, ok := t.InputResponses[key]
		if !ok {
			return errNoAnswer
		}
		answer = a
		delete(t.InputResponses, key)
		delete(t.InputRequests, key)
		if len(t.InputRequests) == 0 {
			t.Status = Working
		}
		return nil
	})
	switch {
	case err == errNoAnswer:
		return nil, false, nil
	case err == ErrTerminal || err == ErrNotFound:
		return nil, true, ErrInputCancelled
	}
	return answer, err == nil, err
}

var errNoAnswer = fmt.Errorf("no answer yet")
