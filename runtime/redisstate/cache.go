package redisstate

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/runtime/cache"
)

// Cache is a cache.Store whose results replicas share. Redis bounds its
// size by its own `maxmemory` policy; the fallback keeps its own bound.
type Cache struct {
	s        *State
	fallback cache.Store
}

// fallbackCacheBytes bounds the fallback cache when none is given.
const fallbackCacheBytes = 64 << 20

// Cache returns the result cache of the shared state; fallback keeps
// results while Redis is down (a cache.Memory when nil).
func (s *State) Cache(fallback cache.Store) *Cache {
	if fallback == nil {
		fallback = cache.NewMemory(fallbackCacheBytes)
	}
	return &Cache{s: s, fallback: fallback}
}

// Get implements cache.Store.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool) {
	if !c.s.use("cache") {
		return c.fallback.Get(ctx, key)
	}
	octx, cancel := c.s.op(ctx)
	defer cancel()
	b, err := c.s.rdb.Get(octx, c.s.key("cache", key)).Bytes()
	if c.s.failed("cache", err) {
		return c.fallback.Get(ctx, key)
	}
	return b, err == nil
}

// Set implements cache.Store.
func (c *Cache) Set(ctx context.Context, key string, value []byte, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	if !c.s.use("cache") {
		c.fallback.Set(ctx, key, value, ttl)
		return
	}
	ttl = max(ttl, time.Millisecond) // Redis's finest
	octx, cancel := c.s.op(ctx)
	defer cancel()
	if c.s.failed("cache", c.s.rdb.Set(octx, c.s.key("cache", key), value, ttl).Err()) {
		c.fallback.Set(ctx, key, value, ttl)
	}
}

var _ cache.Store = (*Cache)(nil)
