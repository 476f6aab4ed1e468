package task

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultTTL          = time.Hour
	DefaultPollInterval = time.Second
	DefaultMaxPerOwner  = 100
)

// Options configure a Manager.
type Options struct {
	// Store keeps the tasks; a Memory when nil.
	Store Store
	// TTL is how long tasks are kept, and the most a client may ask for.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients.
	PollInterval time.Duration
	// MaxPerOwner caps the tasks one owner holds at once.
	MaxPerOwner int
	// SweepEvery is how often expired tasks are deleted; TTL/10, at least
	// a second, when zero.
	SweepEvery time.Duration
	// Panicked, if set, is told of a panic in a task's work, in the
	// deferred function that recovered it (so the stack is the work's);
	// the task fails with an internal error either way.
	Panicked func(method string, v any)
}

// Outcome is how the work of a task ended: a result or a JSON-RPC error.
type Outcome struct {
	Result json.RawMessage
	Error  *Error
	// Failed marks a result that makes the task failed rather than
	// completed (a tool's isError, in the 2025-11-25 semantics).
	Failed  bool
	Message string // the final statusMessage, if any
}

// Manager runs tasks in this process and keeps their state in a Store.
type Manager struct {
	opts    Options
	store   Store
	mu      sync.Mutex
	running map[string]context.CancelFunc // work running here, by task ID
	watch   map[string]chan struct{}      // closed when the task changes
	stop    chan struct{}
	swept   sync.Once
	closed  sync.Once
}

// NewManager returns a Manager; Close stops its sweeper and its work.
func NewManager(opts Options) *Manager {
	opts.TTL = cmp.Or(opts.TTL, DefaultTTL)
	opts.PollInterval = cmp.Or(opts.PollInterval, DefaultPollInterval)
	opts.MaxPerOwner = cmp.Or(opts.MaxPerOwner, DefaultMaxPerOwner)
	opts.SweepEvery = cmp.Or(opts.SweepEvery, max(opts.TTL/10, time.Second))
	if opts.Store == nil {
		opts.Store = NewMemory()
	}
	return &Manager{opts: opts, store: opts.Store, running: map[string]context.CancelFunc{},
		watch: map[string]chan struct{}{}, stop: make(chan struct{})}
}

// Options returns the manager's settings, defaults filled in.
func (m *Manager) Options() Options { return m.opts }

// Work is what a task runs. It honours ctx: a cancelled task's ctx is done.
type Work func(ctx context.Context, h *Handle) Outcome

// Start creates a task owned by owner and runs work in the background. The
// task is stored before Start returns, so that a Get finds it at once.
// ttl is what the client asked for (0 for the default): never more than the
// manager's. ctx gives the work its values (the caller), not its lifetime.
// changed, if not nil, hears every change of the task.
func (m *Manager) Start(ctx context.Context, owner, method string, params json.RawMessage,
	ttl time.Duration, work Work, changed func(*Task)) (*Task, error) {
	m.swept.Do(func() { go m.sweep() })
	if ttl <= 0 || ttl > m.opts.TTL {
		ttl = m.opts.TTL
	}
	now := time.Now().UTC()
	t := &Task{ID: rand.Text(), Owner: owner, Status: Working, CreatedAt: now, UpdatedAt: now,
		TTL: ttl, PollInterval: m.opts.PollInterval, Method: method, Params: params}
	if err := m.store.Create(ctx, t, m.opts.MaxPerOwner); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ttl)
	m.mu.Lock()
	m.running[t.ID] = cancel
	m.mu.Unlock()
	h := &Handle{m: m, id: t.ID, changed: changed}
	go m.run(wctx, cancel, h, method, work)
	return t.clone(), nil
}

func (m *Manager) run(ctx context.Context, cancel context.CancelFunc, h *Handle, method string, work Work) {
	defer func() {
		m.mu.Lock()
		delete(m.running, h.id)
		m.mu.Unlock()
		cancel()
	}()
	out := m.work(ctx, h, method, work)
	t, err := m.store.Update(context.WithoutCancel(ctx), h.id, func(t *Task) error {
		if t.Status.Terminal() {
			return ErrTerminal // cancelled meanwhile: it stays cancelled
		}
		t.Status, t.StatusMessage, t.Result, t.Error = Completed, out.Message, out.Result, out.Error
		if out.Error != nil || out.Failed {
			t.Status = Failed
		}
		t.InputRequests = nil
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err == nil {
		h.changedTo(t)
	}
}

// work runs work; a panic in it is recovered, told to Options.Panicked,
// and ends the task as failed with an internal error: it runs on a
// goroutine of its own, where a panic would end the process.
func (m *Manager) work(ctx context.Context, h *Handle, method string, work Work) (out Outcome) {
	defer func() {
		if v := recover(); v != nil {
			if m.opts.Panicked != nil {
				m.opts.Panicked(method, v)
			}
			out = Outcome{Error: &Error{Code: -32603, Message: "internal error"}}
		}
	}()
	return work(ctx, h)
}

// Get returns owner's task id, or ErrNotFound.
func (m *Manager) Get(ctx context.Context, owner, id string) (*Task, error) {
	t, err := m.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if t.Owner != owner {
		return nil, ErrNotFound // a foreign task is as good as none
	}
	return t, nil
}

// Wait returns owner's task id once it is terminal, or ctx's error.
func (m *Manager) Wait(ctx context.Context, owner, id string) (*Task, error) {
	for {
		ch := m.watchCh(id) // before Get: a change in between is not missed
		t, err := m.Get(ctx, owner, id)
		if err != nil || t.Status.Terminal() {
			return t, err
		}
		if err := m.sleep(ctx, ch, t.PollInterval); err != nil {
			return nil, err
		}
	}
}

// sleep waits for a change announced here or, since another replica may
// change a shared store, for one poll interval.
func (m *Manager) sleep(ctx context.Context, ch <-chan struct{}, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ch:
	case <-timer.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// List returns up to n of owner's tasks after position after, oldest first.
func (m *Manager) List(ctx context.Context, owner string, after int64, n int) ([]*Task, error) {
	return m.store.List(ctx, owner, after, n)
}

// Cancel moves owner's task id to cancelled and stops its work if it runs
// here. A finished task gives ErrTerminal.
func (m *Manager) Cancel(ctx context.Context, owner, id string) (*Task, error) {
	if _, err := m.Get(ctx, owner, id); err != nil {
		return nil, err
	}
	t, err := m.store.Update(ctx, id, func(t *Task) error {
		if t.Status.Terminal() {
			return ErrTerminal
		}
		t.Status, t.StatusMessage = Cancelled, "The task was cancelled by request."
		t.InputRequests = nil
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	stop := m.running[id]
	m.mu.Unlock()
	if stop != nil {
		stop()
	}
	m.announce(id)
	return t, nil
}

// Respond records answers to owner's task's outstanding input requests,
// which stop being outstanding at once (the task is working again when
// none is left). Answers to keys not outstanding are ignored.
func (m *Manager) Respond(ctx context.Context, owner, id string, answers map[string]json.RawMessage) error {
	if _, err := m.Get(ctx, owner, id); err != nil {
		return err
	}
	_, err := m.store.Update(ctx, id, func(t *Task) error {
		for k, v := range answers {
			if _, asked := t.InputRequests[k]; asked {
				if t.InputResponses == nil {
					t.InputResponses = map[string]json.RawMessage{}
				}
				t.InputResponses[k] = v
				delete(t.InputRequests, k) // answered: no longer pending
			}
		}
		if len(t.InputRequests) == 0 && t.Status == InputRequired {
			t.Status = Working
		}
		t.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err == nil {
		m.announce(id)
	}
	return err
}

// watchCh returns a channel closed at the task's next change.
func (m *Manager) watchCh(id string) <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := m.watch[id]
	if ch == nil {
		ch = make(chan struct{})
		m.watch[id] = ch
	}
	return ch
}

// announce wakes whoever waits for a change of task id.
func (m *Manager) announce(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ch := m.watch[id]; ch != nil {
		close(ch)
		delete(m.watch, id)
	}
}

// sweep deletes expired tasks until Close.
func (m *Manager) sweep() {
	tick := time.NewTicker(m.opts.SweepEvery)
	defer tick.Stop()
	for {
		select {
		case <-m.stop:
			return
		case now := <-tick.C:
			_, _ = m.store.Sweep(context.Background(), now)
		}
	}
}

// Close stops the sweeper and cancels the work running here.
func (m *Manager) Close() error {
	m.closed.Do(func() { close(m.stop) })
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, cancel := range m.running {
		cancel()
	}
	return nil
}

// ErrInputCancelled is an input request the task stopped waiting for.
var ErrInputCancelled = errors.New("the task no longer waits for input")
