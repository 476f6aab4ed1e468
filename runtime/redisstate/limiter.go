package redisstate

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"github.com/redis/go-redis/v9"
)

// gcra is the generic cell rate algorithm in one atomic step: the key
// holds the theoretical arrival time (TAT, in microseconds of Redis's
// clock, so that replicas' clocks do not matter). A call is allowed when
// taking it keeps the TAT within burst emission intervals of now; the key
// expires when the bucket would be full again. It returns 0 when allowed,
// else the microseconds to wait.
var gcra = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local new = tat + interval
local over = new - now - burst * interval
if over > 0 then return over end
redis.call('SET', KEYS[1], string.format('%d', new), 'PX', math.ceil((new - now) / 1000) + 1)
return 0
`)

// Limiter is a ratelimit.Limiter whose buckets replicas share: a caller
// limited to N a second gets N across all replicas together.
type Limiter struct {
	s        *State
	fallback ratelimit.Limiter
}

// Limiter returns the rate limiter of the shared state; fallback holds the
// buckets while Redis is down (a ratelimit.Memory when nil).
func (s *State) Limiter(fallback ratelimit.Limiter) *Limiter {
	if fallback == nil {
		fallback = ratelimit.NewMemory()
	}
	return &Limiter{s: s, fallback: fallback}
}

// Allow implements ratelimit.Limiter.
func (l *Limiter) Allow(ctx context.Context, key string, lim ratelimit.Limit) (time.Duration, error) {
	if lim.Burst < 1 || lim.Rate <= 0 || !l.s.use("rate_limit") {
		return l.fallback.Allow(ctx, key, lim)
	}
	interval := int64(float64(time.Second/time.Microsecond) / lim.Rate)
	octx, cancel := l.s.op(ctx)
	defer cancel()
	wait, err := gcra.Run(octx, l.s.rdb, []string{l.s.key("rl", key)}, max(interval, 1), lim.Burst).Int64()
	if l.s.failed("rate_limit", err) {
		return l.fallback.Allow(ctx, key, lim)
	}
	return time.Duration(wait) * time.Microsecond, nil
}

var _ ratelimit.Limiter = (*Limiter)(nil)
