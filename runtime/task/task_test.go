package task

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// waitLimit bounds a wait for a state: not a timing assertion.
const waitLimit = time.Minute

func done(string) Work {
	return func(context.Context, *Handle) Outcome { return Outcome{Result: json.RawMessage(`{"ok":true}`)} }
}

// blocked runs until cancelled and reports that it was.
func blocked(stopped chan<- struct{}) Work {
	return func(ctx context.Context, _ *Handle) Outcome {
		<-ctx.Done()
		close(stopped)
		return Outcome{Result: json.RawMessage(`{"late":true}`)}
	}
}

func TestLifecycle(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	ctx := context.Background()
	tk, err := m.Start(ctx, "a", "tools/call", json.RawMessage(`{"name":"x"}`), 0, done(""), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Status != Working || tk.TTL != DefaultTTL {
		t.Errorf("started = %+v", tk)
	}
	got, err := m.Wait(ctx, "a", tk.ID)
	if err != nil || got.Status != Completed || string(got.Result) != `{"ok":true}` {
		t.Fatalf("waited = %+v, %v", got, err)
	}
	if _, err := m.Cancel(ctx, "a", tk.ID); !errors.Is(err, ErrTerminal) {
		t.Errorf("cancelling a finished task: %v; want ErrTerminal", err)
	}
}

// TestCancelStopsWork: Cancel marks the task cancelled at once and its
// work's context is done; the work's late result does not change that.
func TestCancelStopsWork(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	ctx := context.Background()
	stopped := make(chan struct{})
	tk, _ := m.Start(ctx, "a", "tools/call", nil, 0, blocked(stopped), nil)
	got, err := m.Cancel(ctx, "a", tk.ID)
	if err != nil || got.Status != Cancelled {
		t.Fatalf("cancel = %+v, %v", got, err)
	}
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("the work was not cancelled")
	}
	if got, _ := m.Wait(ctx, "a", tk.ID); got.Status != Cancelled || got.Result != nil {
		t.Errorf("after the work returned: %+v; want it cancelled, no result", got)
	}
}

// TestOwners: a task is invisible to another owner: not found, not
// listed, not cancellable; ids are long, random and distinct.
func TestOwners(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	ctx := context.Background()
	stopped := make(chan struct{})
	tk, _ := m.Start(ctx, "alice", "tools/call", nil, 0, blocked(stopped), nil)
	if _, err := m.Get(ctx, "bob", tk.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob gets alice's task: %v", err)
	}
	if _, err := m.Cancel(ctx, "bob", tk.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob cancels alice's task: %v", err)
	}
	if err := m.Respond(ctx, "bob", tk.ID, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("bob answers alice's task: %v", err)
	}
	if l, _ := m.List(ctx, "bob", 0, 10); len(l) != 0 {
		t.Errorf("bob lists %d tasks", len(l))
	}
	if got, _ := m.Get(ctx, "alice", tk.ID); got.Status != Working {
		t.Errorf("alice's task = %+v; want it still working", got)
	}
	seen := map[string]bool{}
	for range 1000 {
		other, err := m.Start(ctx, "carol", "tools/call", nil, 0, done(""), nil)
		if errors.Is(err, ErrLimit) {
			break
		}
		if len(other.ID) < 26 || seen[other.ID] {
			t.Fatalf("id %q: short or repeated", other.ID)
		}
		seen[other.ID] = true
	}
}

// TestTTL: an expired task is gone (not found, not listed, swept), its
// work stopped; a client cannot ask for more than the configured TTL.
func TestTTL(t *testing.T) {
	m := NewManager(Options{TTL: time.Hour, SweepEvery: 10 * time.Millisecond})
	defer m.Close()
	ctx := context.Background()
	stopped := make(chan struct{})
	tk, _ := m.Start(ctx, "a", "tools/call", nil, 50*time.Millisecond, blocked(stopped), nil)
	if tk.TTL != 50*time.Millisecond {
		t.Errorf("ttl = %v; want the 50ms asked for", tk.TTL)
	}
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("the work outlived its TTL")
	}
	deadline := time.Now().Add(waitLimit)
	for {
		_, err := m.Get(ctx, "a", tk.ID)
		if errors.Is(err, ErrNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the task outlived its TTL")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if long, _ := m.Start(ctx, "a", "tools/call", nil, 48*time.Hour, done(""), nil); long.TTL != time.Hour {
		t.Errorf("asked 48h, got %v; want the 1h cap", long.TTL)
	}
	mem := m.store.(*Memory)
	for time.Now().Before(deadline) {
		mem.mu.Lock()
		_, kept := mem.tasks[tk.ID]
		mem.mu.Unlock()
		if !kept {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Error("the sweeper left the expired task in the store")
}

// TestLimit: an owner holds at most MaxPerOwner tasks; others are not
// affected.
func TestLimit(t *testing.T) {
	m := NewManager(Options{MaxPerOwner: 2})
	defer m.Close()
	ctx := context.Background()
	for range 2 {
		if _, err := m.Start(ctx, "a", "tools/call", nil, 0, done(""), nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start(ctx, "a", "tools/call", nil, 0, done(""), nil); !errors.Is(err, ErrLimit) {
		t.Errorf("third task: %v; want ErrLimit", err)
	}
	if _, err := m.Start(ctx, "b", "tools/call", nil, 0, done(""), nil); err != nil {
		t.Errorf("another owner: %v", err)
	}
}

// TestAsk: a question moves the task to input_required with the request;
// answers to other keys are ignored; the answer resumes the work; a key is
// never asked twice.
func TestAsk(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	ctx := context.Background()
	answers := make(chan string, 2)
	tk, _ := m.Start(ctx, "a", "tools/call", nil, 0, func(ctx context.Context, h *Handle) Outcome {
		a, err := h.Ask(ctx, "q1", json.RawMessage(`{"method":"elicitation/create"}`))
		answers <- string(a)
		if _, err2 := h.Ask(ctx, "q1", nil); err2 == nil {
			answers <- "asked q1 twice"
		}
		if err != nil {
			return Outcome{Error: &Error{Code: -32603, Message: err.Error()}}
		}
		return Outcome{Result: a}
	}, nil)
	deadline := time.Now().Add(waitLimit)
	for {
		got, _ := m.Get(ctx, "a", tk.ID)
		if got.Status == InputRequired {
			if diff := cmp.Diff(map[string]json.RawMessage{"q1": json.RawMessage(`{"method":"elicitation/create"}`)}, got.InputRequests); diff != "" {
				t.Errorf("inputRequests (-want +got):\n%s", diff)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("never input_required")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = m.Respond(ctx, "a", tk.ID, map[string]json.RawMessage{"zz": json.RawMessage(`1`), "q1": json.RawMessage(`{"action":"accept"}`)})
	got, _ := m.Wait(ctx, "a", tk.ID)
	if got.Status != Completed || string(got.Result) != `{"action":"accept"}` || len(got.InputRequests) != 0 {
		t.Errorf("after the answer: %+v", got)
	}
	if a := <-answers; a != `{"action":"accept"}` {
		t.Errorf("answer = %s", a)
	}
	select {
	case a := <-answers:
		t.Error(a)
	default:
	}
}

// TestTaskSerialisable: a task survives a JSON round trip whole, so a store
// may keep it outside the process.
func TestTaskSerialisable(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Millisecond)
	tk := &Task{ID: "x", Owner: "subject:ada", Seq: 3, Status: InputRequired, StatusMessage: "m", CreatedAt: now, UpdatedAt: now,
		TTL: time.Minute, PollInterval: time.Second, Method: "tools/call", Params: json.RawMessage(`{"name":"a"}`),
		Result: json.RawMessage(`{"content":[]}`), Error: &Error{Code: -1, Message: "e", Data: json.RawMessage(`{"a":1}`)},
		InputRequests: map[string]json.RawMessage{"k": json.RawMessage(`{}`)}, InputResponses: map[string]json.RawMessage{"k": json.RawMessage(`2`)},
		Asked: []string{"k"}}
	if diff := cmp.Diff(tk, tk.clone()); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// TestAskAllPartial: questions asked together are all pending at once; an
// answer to one removes it from the pending ones at once, the task stays
// input_required until the last is answered, and the work gets every
// answer.
func TestAskAllPartial(t *testing.T) {
	m := NewManager(Options{})
	defer m.Close()
	ctx := context.Background()
	tk, _ := m.Start(ctx, "a", "tools/call", nil, 0, func(ctx context.Context, h *Handle) Outcome {
		a, err := h.AskAll(ctx, map[string]json.RawMessage{"x": json.RawMessage(`1`), "y": json.RawMessage(`2`)})
		if err != nil {
			return Outcome{Error: &Error{Code: -32603, Message: err.Error()}}
		}
		b, _ := json.Marshal(a)
		return Outcome{Result: b}
	}, nil)
	deadline := time.Now().Add(waitLimit)
	for {
		got, _ := m.Get(ctx, "a", tk.ID)
		if got.Status == InputRequired && len(got.InputRequests) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never input_required with both questions: %+v", got)
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = m.Respond(ctx, "a", tk.ID, map[string]json.RawMessage{"x": json.RawMessage(`"X"`)})
	got, _ := m.Get(ctx, "a", tk.ID)
	if got.Status != InputRequired || len(got.InputRequests) != 1 || got.InputRequests["y"] == nil {
		t.Errorf("after answering x: %s %v; want input_required with y only", got.Status, got.InputRequests)
	}
	_ = m.Respond(ctx, "a", tk.ID, map[string]json.RawMessage{"y": json.RawMessage(`"Y"`)})
	got, _ = m.Wait(ctx, "a", tk.ID)
	if got.Status != Completed || string(got.Result) != `{"x":"X","y":"Y"}` {
		t.Errorf("after both answers: %s %s", got.Status, got.Result)
	}
}
