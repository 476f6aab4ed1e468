package cache

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestMemoryBoundsAndExpiry: entries expire after their TTL; beyond the
// byte bound the least recently used go first; a value larger than the
// bound is not kept.
func TestMemoryBoundsAndExpiry(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1000, 0)
	m := NewMemory(30)
	m.now = func() time.Time { return now }
	m.Set(ctx, "a", []byte("0123456789"), time.Minute) // 11 bytes with its key
	m.Set(ctx, "b", []byte("0123456789"), time.Minute)
	if _, ok := m.Get(ctx, "a"); !ok { // a is now the most recently used
		t.Fatal("a is missing")
	}
	m.Set(ctx, "c", []byte("0123456789"), time.Minute) // 33 bytes: b goes
	if _, ok := m.Get(ctx, "b"); ok {
		t.Error("b was kept beyond the bound")
	}
	for _, k := range []string{"a", "c"} {
		if _, ok := m.Get(ctx, k); !ok {
			t.Errorf("%s is missing", k)
		}
	}
	if m.Size() != 22 {
		t.Errorf("size %d, want 22", m.Size())
	}
	m.Set(ctx, "big", []byte(strings.Repeat("x", 40)), time.Minute)
	if _, ok := m.Get(ctx, "big"); ok || m.Size() != 22 {
		t.Errorf("a value over the bound was kept (size %d)", m.Size())
	}
	now = now.Add(time.Minute)
	if _, ok := m.Get(ctx, "a"); ok {
		t.Error("a outlived its TTL")
	}
}
