package task

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// Store keeps tasks. Implementations hand out and take copies, never share
// a *Task with their callers, and treat an expired task as absent.
type Store interface {
	// Create stores a new task and sets its Seq, unless its owner already
	// holds max tasks (ErrLimit; max ≤ 0 is no limit).
	Create(ctx context.Context, t *Task, max int) error
	// Get returns the task with this ID, or ErrNotFound.
	Get(ctx context.Context, id string) (*Task, error)
	// Update applies fn to the stored task atomically and stores what fn
	// left, returning it. An error from fn leaves the task unchanged.
	Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error)
	// List returns up to n of owner's tasks with Seq greater than after,
	// oldest first.
	List(ctx context.Context, owner string, after int64, n int) ([]*Task, error)
	// Sweep deletes the tasks expired at now and returns how many.
	Sweep(ctx context.Context, now time.Time) (int, error)
}

// Memory is a Store in this process's memory: right for one replica.
type Memory struct {
	mu    sync.Mutex
	seq   int64
	tasks map[string]*Task
	now   func() time.Time
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{tasks: map[string]*Task{}, now: time.Now} }

// Create implements Store.
func (m *Memory) Create(_ context.Context, t *Task, max int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if max > 0 && m.count(t.Owner) >= max {
		return ErrLimit
	}
	m.seq++
	t.Seq = m.seq
	m.tasks[t.ID] = t.clone()
	return nil
}

func (m *Memory) count(owner string) int {
	n := 0
	now := m.now()
	for _, t := range m.tasks {
		if t.Owner == owner && now.Before(t.ExpiresAt()) {
			n++
		}
	}
	return n
}

// live returns the stored task, nil when absent or expired.
func (m *Memory) live(id string) *Task {
	t := m.tasks[id]
	if t == nil || !m.now().Before(t.ExpiresAt()) {
		return nil
	}
	return t
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, id string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.live(id)
	if t == nil {
		return nil, ErrNotFound
	}
	return t.clone(), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, id string, fn func(*Task) error) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.live(id)
	if t == nil {
		return nil, ErrNotFound
	}
	c := t.clone()
	if err := fn(c); err != nil {
		return nil, err
	}
	m.tasks[id] = c
	return c.clone(), nil
}

// List implements Store.
func (m *Memory) List(_ context.Context, owner string, after int64, n int) ([]*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*Task
	for id, t := range m.tasks {
		if t.Owner == owner && t.Seq > after && m.live(id) != nil {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *Task) int { return cmp.Compare(a.Seq, b.Seq) })
	if len(out) > n {
		out = out[:n]
	}
	for i, t := range out {
		out[i] = t.clone()
	}
	return out, nil
}

// Sweep implements Store.
func (m *Memory) Sweep(_ context.Context, now time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for id, t := range m.tasks {
		if !now.Before(t.ExpiresAt()) {
			delete(m.tasks, id)
			n++
		}
	}
	return n, nil
}

var _ Store = (*Memory)(nil)
