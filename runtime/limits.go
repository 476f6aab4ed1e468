package runtime

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
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
