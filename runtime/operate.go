package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/bulkhead"
	"github.com/mcpgen/mcpgen/runtime/cache"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// What happens around a tool call besides running it (operate.go,
// observe.go): the result cache, then the tool's and its backend's
// concurrency limits (bulkheads), then the call (toolcall.go).

// slotLimit is a built concurrency limit.
type slotLimit struct {
	max  int
	wait time.Duration
}

// toolCache is a tool's built `cache`.
type toolCache struct {
	ttl       time.Duration
	perCaller bool
}

// operate is what the server needs around calls: where slots and cached
// results are kept, and the limits of named backends.
type operate struct {
	slots    bulkhead.Slots
	cache    cache.Store // nil until a tool caches
	backends map[string]*slotLimit
}

// operateMiddleware answers tools/call from the cache when it can, and
// holds a slot of the tool's and its backend's concurrency limits while
// the call runs. It runs inside callerMiddleware: a caller refused for
// its scopes never reaches the cache.
func (s *Server) operateMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		t := s.toolIndex[r.Params.Name]
		if t == nil || t.cache == nil && t.slots == nil && s.ops.backends[t.backend] == nil {
			return next(ctx, method, req)
		}
		var key string
		if t.cache != nil {
			key = t.cacheKey(ctx, r.Params.Arguments)
			if res := s.cached(ctx, t, key); res != nil {
				return res, nil
			}
		}
		release, refusal := s.takeSlots(ctx, t)
		if refusal != nil {
			return refusal, nil
		}
		defer release()
		res, err := next(ctx, method, req)
		if t.cache != nil && err == nil {
			s.keep(ctx, t, key, res)
		}
		return res, err
	}
}

// takeSlots takes a slot of the tool's limit, then of its backend's; it
// returns a tool error naming the limit when one stays full.
func (s *Server) takeSlots(ctx context.Context, t *tool) (func(), *mcp.CallToolResult) {
	var held []func()
	release := func() {
		for _, r := range held {
			r()
		}
	}
	for _, l := range []struct {
		what, name string
		lim        *slotLimit
	}{{"tool", t.def.Name, t.slots}, {"backend", t.backend, s.ops.backends[t.backend]}} {
		if l.lim == nil {
			continue
		}
		r, err := s.ops.slots.Acquire(ctx, l.what+"\x00"+l.name, l.lim.max, l.lim.wait)
		if err != nil {
			release()
			s.obs.Metrics.Busy(l.what, l.name)
			refused(ctx)
			return nil, errorResult(busyText(l.what, l.name, l.lim, err))
		}
		held = append(held, r)
	}
	return release, nil
}

func busyText(what, name string, l *slotLimit, err error) string {
	if !errors.Is(err, bulkhead.ErrFull) {
		return fmt.Sprintf("canceled while waiting for a free slot of %s %q: %v", what, name, err)
	}
	return fmt.Sprintf("%s %q is at its concurrency limit (%d calls at once, waited %s); retry later",
		what, name, l.max, l.wait)
}

// cacheKey identifies a call's result: the tool, the caller when results
// are kept per caller, and the arguments in a canonical form (object keys
// sorted), hashed.
func (t *tool) cacheKey(ctx context.Context, raw json.RawMessage) string {
	h := sha256.New()
	h.Write([]byte(t.def.Name))
	h.Write([]byte{0})
	if t.cache.perCaller {
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

// cached returns the kept result of key, or nil.
func (s *Server) cached(ctx context.Context, t *tool, key string) *mcp.CallToolResult {
	data, ok := s.ops.cache.Get(ctx, key)
	if !ok {
		s.obs.Metrics.Cache(t.def.Name, "miss")
		return nil
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(data, &res); err != nil {
		return nil
	}
	s.obs.Metrics.Cache(t.def.Name, "hit")
	markCached(ctx)
	return &res
}

// keep caches a successful result.
func (s *Server) keep(ctx context.Context, t *tool, key string, res mcp.Result) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r.IsError {
		return
	}
	if data, err := json.Marshal(r); err == nil {
		s.ops.cache.Set(ctx, key, data, t.cache.ttl)
	}
}
