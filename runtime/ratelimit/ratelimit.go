// Package ratelimit decides whether a caller may make one more call: token
// buckets by key, behind an interface so that replicas can share them in a
// store; Memory keeps them in one process.
package ratelimit

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limit is a token bucket: Rate tokens a second, holding at most Burst.
type Limit struct {
	Rate  float64
	Burst int
}

// Limiter decides, per key, whether one more event is allowed.
type Limiter interface {
	// Allow takes a token from key's bucket and returns 0. When the bucket
	// is empty it takes nothing and returns how long until a token is
	// there. An error means the decision could not be made (a store down).
	Allow(ctx context.Context, key string, l Limit) (time.Duration, error)
}

// sweepEvery is how many calls of Allow pass between sweeps of the buckets
// that have filled up again.
const sweepEvery = 1024

// Memory is a Limiter keeping its buckets in memory. A bucket left alone
// long enough to fill up is the same as a new one, so it is dropped: memory
// follows the callers active lately, not all callers ever seen.
type Memory struct {
	now func() time.Time // for tests

	mu      sync.Mutex
	buckets map[string]*bucket
	calls   int
}

type bucket struct {
	lim  *rate.Limiter
	full time.Time // when it is full again if nothing else is taken
}

// NewMemory returns an empty in-memory Limiter.
func NewMemory() *Memory {
	return &Memory{now: time.Now, buckets: map[string]*bucket{}}
}

// Allow implements Limiter.
func (m *Memory) Allow(_ context.Context, key string, l Limit) (time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.calls++; m.calls%sweepEvery == 0 {
		m.sweep(now)
	}
	b := m.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.Rate), l.Burst)}
		m.buckets[key] = b
	}
	if !b.lim.AllowN(now, 1) {
		r := b.lim.ReserveN(now, 1) // only to learn the wait: given back at once
		if !r.OK() {                // a burst of 0: never
			return time.Duration(float64(time.Second) / max(l.Rate, 1e-9)), nil
		}
		d := r.DelayFrom(now)
		r.CancelAt(now)
		return d, nil
	}
	missing := float64(l.Burst) - b.lim.TokensAt(now)
	b.full = now.Add(time.Duration(missing / max(l.Rate, 1e-9) * float64(time.Second)))
	return 0, nil
}

// sweep drops the buckets that are full again.
func (m *Memory) sweep(now time.Time) {
	for k, b := range m.buckets {
		if !now.Before(b.full) {
			delete(m.buckets, k)
		}
	}
}

// Len returns the number of buckets held (for tests and metrics).
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}

var _ Limiter = (*Memory)(nil)
