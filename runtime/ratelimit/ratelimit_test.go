package ratelimit

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// clock is a fake time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newTestMemory() (*Memory, *clock) {
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	m := NewMemory()
	m.now = c.now
	return m, c
}

func allow(t *testing.T, m *Memory, key string, l Limit) time.Duration {
	t.Helper()
	d, err := m.Allow(context.Background(), key, l)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestMemoryBucket(t *testing.T) {
	m, c := newTestMemory()
	l := Limit{Rate: 1, Burst: 2}
	for i := range 2 {
		if d := allow(t, m, "a", l); d != 0 {
			t.Fatalf("call %d waits %v, want 0 (within the burst)", i, d)
		}
	}
	if d := allow(t, m, "a", l); d != time.Second {
		t.Errorf("third call waits %v, want 1s", d)
	}
	// a refusal takes no token: after the wait, one call goes through
	if d := allow(t, m, "b", l); d != 0 {
		t.Errorf("another key waits %v, want 0", d)
	}
	c.advance(time.Second)
	if d := allow(t, m, "a", l); d != 0 {
		t.Errorf("after the wait: %v, want 0", d)
	}
	if d := allow(t, m, "a", l); d != time.Second {
		t.Errorf("then: %v, want 1s", d)
	}
}

// TestMemorySweep: buckets that filled up again are dropped, so memory
// follows the callers active lately.
func TestMemorySweep(t *testing.T) {
	m, c := newTestMemory()
	l := Limit{Rate: 10, Burst: 10}
	for i := range sweepEvery - 1 {
		allow(t, m, fmt.Sprint("caller", i), l)
	}
	if m.Len() != sweepEvery-1 {
		t.Fatalf("%d buckets, want %d", m.Len(), sweepEvery-1)
	}
	c.advance(time.Second) // long enough for every bucket to fill up
	allow(t, m, "last", l) // the sweep runs on this call
	if m.Len() != 1 {
		t.Errorf("%d buckets after the sweep, want 1", m.Len())
	}
}

func TestMemoryZeroBurst(t *testing.T) {
	m, _ := newTestMemory()
	if d := allow(t, m, "a", Limit{Rate: 2, Burst: 0}); d <= 0 {
		t.Errorf("a burst of 0 allowed a call")
	}
}

// TestMemoryConcurrent: callers racing for one bucket get exactly its burst.
func TestMemoryConcurrent(t *testing.T) {
	m, _ := newTestMemory()
	l := Limit{Rate: 0.001, Burst: 50}
	allowed := make(chan bool, 400)
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 50 {
				d, _ := m.Allow(context.Background(), "k", l)
				allowed <- d == 0
			}
		}()
	}
	for range 8 {
		<-done
	}
	close(allowed)
	n := 0
	for ok := range allowed {
		if ok {
			n++
		}
	}
	if n != 50 {
		t.Errorf("%d calls allowed, want 50", n)
	}
}

// BenchmarkMemoryAllow measures one decision for one of 1,000 callers.
func BenchmarkMemoryAllow(b *testing.B) {
	m := NewMemory()
	l := Limit{Rate: 1, Burst: 1 << 30} // never full again: no bucket is swept
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprint("tool\x00caller", i)
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if d, _ := m.Allow(ctx, keys[i%len(keys)], l); d != 0 {
			b.Fatal("refused")
		}
		i++
	}
}
