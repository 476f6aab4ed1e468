// Package cache keeps encoded results for a while, bounded in bytes. The
// store sits behind an interface so that replicas could share it; Memory
// keeps it in one process, least recently used first out.
package cache

import (
	"container/list"
	"context"
	"sync"
	"time"
)

// Store keeps values by key until they expire.
type Store interface {
	// Get returns key's value if it is there and not expired.
	Get(ctx context.Context, key string) ([]byte, bool)
	// Set keeps value under key for ttl. A value that cannot be kept (too
	// large) is dropped silently: a cache may forget.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration)
}

// Memory is a Store in memory, holding at most max bytes of keys and
// values; beyond that, the least recently used entries go first.
type Memory struct {
	now func() time.Time // for tests
	max int64

	mu    sync.Mutex
	size  int64
	order *list.List // front: most recently used
	items map[string]*list.Element
}

type entry struct {
	key     string
	value   []byte
	expires time.Time
}

func (e *entry) size() int64 { return int64(len(e.key) + len(e.value)) }

// NewMemory returns an empty Memory holding at most max bytes.
func NewMemory(max int64) *Memory {
	return &Memory{now: time.Now, max: max, order: list.New(), items: map[string]*list.Element{}}
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if !m.now().Before(e.expires) {
		m.remove(el)
		return nil, false
	}
	m.order.MoveToFront(el)
	return e.value, true
}

// Set implements Store.
func (m *Memory) Set(_ context.Context, key string, value []byte, ttl time.Duration) {
	e := &entry{key: key, value: value, expires: m.now().Add(ttl)}
	if e.size() > m.max || ttl <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.items[key]; ok {
		m.remove(el)
	}
	m.items[key] = m.order.PushFront(e)
	m.size += e.size()
	for m.size > m.max {
		m.remove(m.order.Back())
	}
}

func (m *Memory) remove(el *list.Element) {
	e := m.order.Remove(el).(*entry)
	delete(m.items, e.key)
	m.size -= e.size()
}

// Size returns the bytes held (for tests and metrics).
func (m *Memory) Size() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.size
}

var _ Store = (*Memory)(nil)
