// Package bulkhead caps the calls running at once on a tool or a backend:
// a call beyond the cap waits for a free slot, for a while, then gives up.
// Slots sit behind an interface so that replicas could share them in a
// store; Memory keeps them in one process.
package bulkhead

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrFull is returned when no slot freed up within the wait.
var ErrFull = errors.New("no free slot")

// Slots hands out a bounded number of slots per key.
type Slots interface {
	// Acquire takes one of max slots of key, waiting up to wait for one to
	// be released. It returns the function that releases the slot, or
	// ErrFull after the wait, or ctx's error when ctx ends first.
	Acquire(ctx context.Context, key string, max int, wait time.Duration) (release func(), err error)
}

// Memory is Slots in one process's memory.
type Memory struct {
	mu   sync.Mutex
	sems map[string]chan struct{}
}

// NewMemory returns Slots with no slot taken.
func NewMemory() *Memory {
	return &Memory{sems: map[string]chan struct{}{}}
}

// sem returns key's semaphore; its size is the max of its first use.
func (m *Memory) sem(key string, max int) chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sems[key]
	if s == nil {
		s = make(chan struct{}, max)
		m.sems[key] = s
	}
	return s
}

// Acquire implements Slots.
func (m *Memory) Acquire(ctx context.Context, key string, max int, wait time.Duration) (func(), error) {
	s := m.sem(key, max)
	release := func() { <-s }
	select {
	case s <- struct{}{}:
		return release, nil
	default:
	}
	if wait <= 0 {
		return nil, ErrFull
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case s <- struct{}{}:
		return release, nil
	case <-t.C:
		return nil, ErrFull
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// InUse returns the slots of key taken now (for tests and metrics).
func (m *Memory) InUse(key string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sems[key])
}

var _ Slots = (*Memory)(nil)
