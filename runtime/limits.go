package runtime

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"github.com/mcpgen/mcpgen/spec"
)

// limits are the rate limits of tool calls: where the buckets are, and the
// limit of tools that set none.
type limits struct {
	store    ratelimit.Limiter
	fallback *toolLimit
}

// toolLimit is one tool's rate limits: per caller, for all callers
// together, or both (nil for none).
type toolLimit struct {
	perCaller, global *rateRule
}

// rateRule is one token bucket.
type rateRule struct {
	limit ratelimit.Limit
	text  string // as written, for messages: 10/s
}

// toolLimit returns the rate limit of tool t: its own, else the server's.
func (b *builder) toolLimit(f *load.File, path string, t *spec.Tool) *toolLimit {
	if t.RateLimit != nil {
		return b.rateLimit(f, path+".rate_limit", t.RateLimit)
	}
	return nil // the server's, if any, applies at call time
}

// rateLimit checks a rate_limit section.
func (b *builder) rateLimit(f *load.File, path string, rl *spec.RateLimit) *toolLimit {
	if rl.Burst < 0 {
		b.errorf(f, path+".burst", "burst must be at least 1, got %d", rl.Burst)
		return nil
	}
	if rl.PerCaller == "" && rl.Global == "" {
		b.diag(f, load.Error, path, "a rate limit needs per_caller, global or both", "e.g. per_caller: 10/s")
		return nil
	}
	l := &toolLimit{perCaller: b.rateRule(f, path+".per_caller", rl.PerCaller, rl.Burst),
		global: b.rateRule(f, path+".global", rl.Global, 0)}
	if l.perCaller == nil && l.global == nil {
		return nil
	}
	return l
}

// rateRule reads one rate (nil when not given or wrong); burst 0 takes
// the number in the rate.
func (b *builder) rateRule(f *load.File, path string, r spec.Rate, burst int) *rateRule {
	if r == "" {
		return nil
	}
	n, perSec, ok := parseRate(string(r))
	if !ok {
		b.diag(f, load.Error, path, fmt.Sprintf("invalid rate %q", r),
			"write a number of calls per second, minute or hour: 10/s, 100/m, 1000/h")
		return nil
	}
	if burst == 0 {
		burst = max(1, int(math.Ceil(n)))
	}
	return &rateRule{limit: ratelimit.Limit{Rate: perSec, Burst: burst}, text: string(r)}
}

// parseRate reads N/s, N/m or N/h: it returns N and the events per second.
func parseRate(s string) (n, perSec float64, ok bool) {
	num, unit, found := strings.Cut(strings.TrimSpace(s), "/")
	per := map[string]float64{"s": 1, "m": 60, "h": 3600}[strings.TrimSpace(unit)]
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !found || per == 0 || err != nil || n <= 0 || math.IsInf(n, 0) {
		return 0, 0, false
	}
	return n, n / per, true
}

// limited returns why the call of t by the caller on ctx must wait, or ""
// when it may go ahead. The global bucket is asked only once the caller's
// own allowed the call: a caller over its limit does not use up everyone's.
func (s *Server) limited(ctx context.Context, t *tool) string {
	l := t.limit
	if l == nil {
		l = s.limits.fallback
	}
	if l == nil {
		return ""
	}
	if r := l.perCaller; r != nil {
		who := ""
		if c := auth.CallerFrom(ctx); c != nil {
			who = c.Subject
		}
		if msg := s.allow(ctx, t, r, t.def.Name+"\x00"+who, "per caller"); msg != "" {
			return msg
		}
	}
	if r := l.global; r != nil {
		return s.allow(ctx, t, r, t.def.Name+"\x00\x00global", "for all callers together")
	}
	return ""
}

// allow takes a token of key's bucket, or says why the call must wait.
func (s *Server) allow(ctx context.Context, t *tool, r *rateRule, key, scope string) string {
	wait, err := s.limits.store.Allow(ctx, key, r.limit)
	if err != nil {
		s.logger.Warn("rate limit unavailable; call refused", "tool", t.def.Name, "error", err)
		refused(ctx)
		return "rate limit unavailable; retry later"
	}
	if wait <= 0 {
		return ""
	}
	refused(ctx)
	s.obs.Metrics.RateLimited(t.def.Name, map[bool]string{true: "per_caller", false: "global"}[scope == "per caller"])
	return fmt.Sprintf("rate limit exceeded: tool %s allows %s %s (burst %d); retry in %s",
		t.def.Name, r.text, scope, r.limit.Burst, retryText(wait))
}

// retryText rounds a wait up to a tenth of a second, so that a model
// retrying at that time finds a token.
func retryText(d time.Duration) string {
	return (time.Duration(math.Ceil(float64(d)/float64(100*time.Millisecond))) * 100 * time.Millisecond).String()
}
