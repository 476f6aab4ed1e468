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

// toolLimit is one tool's rate limit per caller.
type toolLimit struct {
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
	n, perSec, ok := parseRate(string(rl.PerCaller))
	if !ok {
		if f.Given(path + ".per_caller") {
			b.diag(f, load.Error, path+".per_caller", fmt.Sprintf("invalid rate %q", rl.PerCaller),
				"write a number of calls per second, minute or hour: 10/s, 100/m, 1000/h")
		}
		return nil
	}
	burst := rl.Burst
	if burst == 0 {
		burst = max(1, int(math.Ceil(n)))
	}
	if burst < 0 {
		b.errorf(f, path+".burst", "burst must be at least 1, got %d", burst)
		return nil
	}
	return &toolLimit{limit: ratelimit.Limit{Rate: perSec, Burst: burst}, text: string(rl.PerCaller)}
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
// when it may go ahead.
func (s *Server) limited(ctx context.Context, t *tool) string {
	l := t.limit
	if l == nil {
		l = s.limits.fallback
	}
	if l == nil {
		return ""
	}
	who := ""
	if c := auth.CallerFrom(ctx); c != nil {
		who = c.Subject
	}
	wait, err := s.limits.store.Allow(ctx, t.def.Name+"\x00"+who, l.limit)
	if err != nil {
		s.logger.Warn("rate limit unavailable; call refused", "tool", t.def.Name, "error", err)
		return "rate limit unavailable; retry later"
	}
	if wait <= 0 {
		return ""
	}
	return fmt.Sprintf("rate limit exceeded: tool %s allows %s per caller (burst %d); retry in %s",
		t.def.Name, l.text, l.limit.Burst, retryText(wait))
}

// retryText rounds a wait up to a tenth of a second, so that a model
// retrying at that time finds a token.
func retryText(d time.Duration) string {
	return (time.Duration(math.Ceil(float64(d)/float64(100*time.Millisecond))) * 100 * time.Millisecond).String()
}
