package redisstate

import (
	"context"
	"fmt"
	"iter"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/redis/go-redis/v9"
)

// Events is an mcp.EventStore in Redis: the events of every stream of a
// session, in a list per stream, so that a client resuming a stream with
// Last-Event-ID gets what it missed from any replica. Each list keeps the
// stream's last 10,000 events and expires SessionTTL after its last one. While Redis is down, events go
// to the fallback, and only the replica that holds them can replay them.
type Events struct {
	s        *State
	fallback mcp.EventStore
	max      int // events kept per stream
}

// Events returns the event store of the shared state; fallback keeps
// events while Redis is down (an mcp.MemoryEventStore when nil).
func (s *State) Events(fallback mcp.EventStore) *Events {
	if fallback == nil {
		fallback = mcp.NewMemoryEventStore(nil)
	}
	return &Events{s: s, fallback: fallback, max: maxStreamEvents}
}

// Open implements mcp.EventStore; the fallback opens the stream too, in
// case Redis goes away while it runs.
func (e *Events) Open(ctx context.Context, session, stream string) error {
	if err := e.fallback.Open(ctx, session, stream); err != nil {
		return err
	}
	if !e.s.use("events") {
		return nil
	}
	octx, cancel := e.s.op(ctx)
	defer cancel()
	p := e.s.rdb.TxPipeline()
	p.SAdd(octx, e.s.key("streams", session), stream)
	p.PExpire(octx, e.s.key("streams", session), e.s.opts.SessionTTL)
	_, err := p.Exec(octx)
	e.s.failed("events", err)
	return nil
}

// maxStreamEvents bounds the events kept per stream: older ones are
// dropped, and resuming from before them fails as the protocol allows.
const maxStreamEvents = 10000

// appendEvent appends ARGV[1] to the stream's list (KEYS[1]), drops the
// oldest events beyond ARGV[2], counting them in the session's offsets
// (KEYS[2], field ARGV[3]), and pushes back the expiry of the session's
// keys (KEYS[1..3]) to ARGV[4] ms.
var appendEvent = redis.NewScript(`
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
local max = tonumber(ARGV[2])
if n > max then
  redis.call('LTRIM', KEYS[1], n - max, -1)
  redis.call('HINCRBY', KEYS[2], ARGV[3], n - max)
end
for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, ARGV[4]) end
return n
`)

// eventsAfter returns {exists, events after index ARGV[2]} of the stream
// (KEYS[1], its dropped count in KEYS[2] field ARGV[1]), or {-1} when some
// of them were dropped.
var eventsAfter = redis.NewScript(`
local off = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local start = tonumber(ARGV[2]) + 1 - off
if start < 0 then return {-1} end
return {redis.call('EXISTS', KEYS[1]), redis.call('LRANGE', KEYS[1], start, -1)}
`)

// Append implements mcp.EventStore.
func (e *Events) Append(ctx context.Context, session, stream string, data []byte) error {
	if !e.s.use("events") {
		return e.fallback.Append(ctx, session, stream, data)
	}
	octx, cancel := e.s.op(ctx)
	defer cancel()
	keys := []string{e.s.key("events", session, stream), e.s.key("evoff", session), e.s.key("streams", session)}
	err := appendEvent.Run(octx, e.s.rdb, keys, data, e.max, stream, e.s.opts.SessionTTL.Milliseconds()).Err()
	if e.s.failed("events", err) {
		return e.fallback.Append(ctx, session, stream, data)
	}
	return nil
}

// After implements mcp.EventStore. A stream Redis does not know is looked
// for in the fallback: its events were stored while Redis was down.
func (e *Events) After(ctx context.Context, session, stream string, index int) iter.Seq2[[]byte, error] {
	if !e.s.use("events") {
		return e.fallback.After(ctx, session, stream, index)
	}
	octx, cancel := e.s.op(ctx)
	defer cancel()
	keys := []string{e.s.key("events", session, stream), e.s.key("evoff", session)}
	res, err := eventsAfter.Run(octx, e.s.rdb, keys, stream, index).Slice()
	if e.s.failed("events", err) {
		return e.fallback.After(ctx, session, stream, index)
	}
	if n, _ := res[0].(int64); n < 0 {
		return func(yield func([]byte, error) bool) {
			yield(nil, fmt.Errorf("stream %q of session %q, after %d: %w", stream, session, index, mcp.ErrEventsPurged))
		}
	} else if n == 0 {
		return e.fallback.After(ctx, session, stream, index)
	}
	data, _ := res[1].([]any)
	return func(yield func([]byte, error) bool) {
		for _, d := range data {
			s, _ := d.(string)
			if !yield([]byte(s), nil) {
				return
			}
		}
	}
}

// SessionClosed implements mcp.EventStore. It forgets the session's events
// in the fallback only: a session closes when its replica stops, and
// another replica may still take it over and replay its streams. Redis
// forgets them when the client ends the session (Sessions.Delete) or
// SessionTTL after their last change.
func (e *Events) SessionClosed(ctx context.Context, session string) error {
	if err := e.fallback.SessionClosed(ctx, session); err != nil {
		return fmt.Errorf("closing session: %w", err)
	}
	return nil
}

var _ mcp.EventStore = (*Events)(nil)
