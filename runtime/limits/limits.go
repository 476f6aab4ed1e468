// Package limits applies what a config limits around a tool call, before
// the tool runs: rate limits (token buckets in a ratelimit.Limiter),
// concurrency limits (slots in bulkhead.Slots) of the tool and of its
// backend, and the result cache (a cache.Store). The build fills a Set and
// the tools' limits; nothing changes them afterwards.
package limits

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/bulkhead"
	"github.com/mcpgen/mcpgen/runtime/cache"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
)

// Set is where the limits of a server's calls are kept, and the limits
// that are not a tool's own.
type Set struct {
	// Rates holds the buckets of rate limits.
	Rates ratelimit.Limiter
	// Fallback is the rate limit of tools that set none (server.rate_limit).
	Fallback *Rates
	// Slots holds the concurrency limits' slots.
	Slots bulkhead.Slots
	// Results keeps cached results; nil until a tool caches.
	Results cache.Store
	// Backends are the concurrency limits of named backends.
	Backends map[string]*Slots
}

// NewSet returns a set that keeps everything in memory.
func NewSet() *Set {
	return &Set{Rates: ratelimit.NewMemory(), Slots: bulkhead.NewMemory(), Backends: map[string]*Slots{}}
}

// Rates are one tool's rate limits: per caller, for all callers together,
// or both.
type Rates struct {
	PerCaller, Global *Rate
}

// Rate is one token bucket.
type Rate struct {
	Limit ratelimit.Limit
	Text  string // as written, for messages: 10/s
}

// Slots is a concurrency limit: at most Max calls at once, a call waiting
// up to Wait for a slot.
type Slots struct {
	Max  int
	Wait time.Duration
}

// Limited returns why the call of tool by the caller on ctx must wait, or
// "" when it may go ahead; own is the tool's rate limit, nil for the
// fallback. The global bucket is asked only once the caller's own allowed
// the call: a caller over its limit does not use up everyone's.
func (s *Set) Limited(ctx context.Context, m *observe.Metrics, log *slog.Logger, tool string, own *Rates) string {
	l := own
	if l == nil {
		l = s.Fallback
	}
	if l == nil {
		return ""
	}
	if r := l.PerCaller; r != nil {
		who := ""
		if c := auth.CallerFrom(ctx); c != nil {
			who = c.Subject
		}
		if msg := s.allow(ctx, m, log, tool, r, tool+"\x00"+who, "per caller"); msg != "" {
			return msg
		}
	}
	if r := l.Global; r != nil {
		return s.allow(ctx, m, log, tool, r, tool+"\x00\x00global", "for all callers together")
	}
	return ""
}

// allow takes a token of key's bucket, or says why the call must wait.
func (s *Set) allow(ctx context.Context, m *observe.Metrics, log *slog.Logger, tool string, r *Rate, key, scope string) string {
	wait, err := s.Rates.Allow(ctx, key, r.Limit)
	if err != nil {
		log.Warn("rate limit unavailable; call refused", "tool", tool, "error", err)
		refused(ctx)
		return "rate limit unavailable; retry later"
	}
	if wait <= 0 {
		return ""
	}
	refused(ctx)
	m.RateLimited(tool, map[bool]string{true: "per_caller", false: "global"}[scope == "per caller"])
	return fmt.Sprintf("rate limit exceeded: tool %s allows %s %s (burst %d); retry in %s",
		tool, r.Text, scope, r.Limit.Burst, retryText(wait))
}

// retryText rounds a wait up to a tenth of a second, so that a model
// retrying at that time finds a token.
func retryText(d time.Duration) string {
	return (time.Duration(math.Ceil(float64(d)/float64(100*time.Millisecond))) * 100 * time.Millisecond).String()
}

// TakeSlots takes a slot of the tool's own limit, then of its backend's;
// it returns why when one stays full ("" and a release when both were
// taken).
func (s *Set) TakeSlots(ctx context.Context, m *observe.Metrics, tool, backend string, own *Slots) (func(), string) {
	var held []func()
	release := func() {
		for _, r := range held {
			r()
		}
	}
	for _, l := range []struct {
		what, name string
		lim        *Slots
	}{{"tool", tool, own}, {"backend", backend, s.Backends[backend]}} {
		if l.lim == nil {
			continue
		}
		r, err := s.Slots.Acquire(ctx, l.what+"\x00"+l.name, l.lim.Max, l.lim.Wait)
		if err != nil {
			release()
			m.Busy(l.what, l.name)
			refused(ctx)
			return nil, busyText(l.what, l.name, l.lim, err)
		}
		held = append(held, r)
	}
	return release, ""
}

func busyText(what, name string, l *Slots, err error) string {
	if !errors.Is(err, bulkhead.ErrFull) {
		return fmt.Sprintf("canceled while waiting for a free slot of %s %q: %v", what, name, err)
	}
	return fmt.Sprintf("%s %q is at its concurrency limit (%d calls at once, waited %s); retry later",
		what, name, l.Max, l.Wait)
}

// refused marks the call on ctx as refused by a limit.
func refused(ctx context.Context) { observe.CallFrom(ctx).SetOutcome("refused") }
