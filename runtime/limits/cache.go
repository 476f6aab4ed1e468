package limits

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// Cache is a tool's built `cache`: how long results are kept, and whether
// each caller has their own.
type Cache struct {
	TTL       time.Duration
	PerCaller bool
}

// CacheKey identifies a call's result: the tool, the caller when results
// are kept per caller, and the arguments in a canonical form (object keys
// sorted), hashed.
func CacheKey(ctx context.Context, tool string, c *Cache, raw json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	if c.PerCaller {
		if c := auth.CallerFrom(ctx); c != nil {
			h.Write([]byte(c.Subject))
		}
	}
	h.Write([]byte{0})
	var v any
	if json.Unmarshal(raw, &v) == nil {
		raw, _ = json.Marshal(v) // maps marshal with sorted keys
	}
	h.Write(raw)
	return "tool\x00" + hex.EncodeToString(h.Sum(nil))
}

// Cached returns the kept result of key, or nil.
func (s *Set) Cached(ctx context.Context, m *observe.Metrics, tool, key string) *mcp.CallToolResult {
	data, ok := s.Results.Get(ctx, key)
	if !ok {
		m.Cache(tool, "miss")
		return nil
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(data, &res); err != nil {
		return nil
	}
	m.Cache(tool, "hit")
	observe.CallFrom(ctx).SetOutcome("cached")
	return &res
}

// Keep caches a successful result for the cache's TTL.
func (s *Set) Keep(ctx context.Context, c *Cache, key string, res mcp.Result) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r.IsError {
		return
	}
	if data, err := json.Marshal(r); err == nil {
		s.Results.Set(ctx, key, data, c.TTL)
	}
}
