package redisstate

import (
	"context"
	"fmt"
	"iter"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Events is an mcp.EventStore in Redis: the events of every stream of a
// session, in a list per stream, so that a client resuming a stream with
// Last-Event-ID gets what it missed from any replica. The lists expire
// SessionTTL after the stream's last event. While Redis is down, events go
// to the fallback, and only the replica that holds them can replay them.
type Events struct {
	s        *State
	fallback mcp.EventStore
}

// Events returns the event store of the shared state; fallback keeps
// events while Redis is down (an mcp.MemoryEventStore when nil).
func (s *State) Events(fallback mcp.EventStore) *Events {
	if fallback == nil {
		fallback = mcp.NewMemoryEventStore(nil)
	}
	return &Events{s: s, fallback: fallback}
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

// Append implements mcp.EventStore.
func (e *Events) Append(ctx context.Context, session, stream string, data []byte) error {
	if !e.s.use("events") {
		return e.fallback.Append(ctx, session, stream, data)
	}
	octx, cancel := e.s.op(ctx)
	defer cancel()
	k := e.s.key("events", session, stream)
	p := e.s.rdb.TxPipeline()
	p.RPush(octx, k, data)
	p.PExpire(octx, k, e.s.opts.SessionTTL)
	p.PExpire(octx, e.s.key("streams", session), e.s.opts.SessionTTL)
	if _, err := p.Exec(octx); e.s.failed("events", err) {
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
	k := e.s.key("events", session, stream)
	data, err := e.s.rdb.LRange(octx, k, int64(index+1), -1).Result()
	if e.s.failed("events", err) {
		return e.fallback.After(ctx, session, stream, index)
	}
	if len(data) == 0 {
		n, err := e.s.rdb.Exists(octx, k).Result()
		if e.s.failed("events", err) || n == 0 {
			return e.fallback.After(ctx, session, stream, index)
		}
	}
	return func(yield func([]byte, error) bool) {
		for _, d := range data {
			if !yield([]byte(d), nil) {
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
