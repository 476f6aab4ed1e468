package redisstate

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Sessions is an mcp.SessionStore in Redis: the state of each stateful
// session (what the client sent in initialize, its log level) and whose it
// is, so that any replica can take a session over when the one that served
// it is gone. It has no fallback: while Redis is down, a session lives on
// the replica that holds it, as with one replica.
type Sessions struct {
	s       *State
	touched sync.Map // session ID → when Touch last reached Redis
	n       atomic.Int64
}

// sessionRecord is a session as Redis keeps it.
type sessionRecord struct {
	User  string                  `json:"user,omitempty"`
	State *mcp.ServerSessionState `json:"state"`
}

// Sessions returns the session store of the shared state.
func (s *State) Sessions() *Sessions { return s.sessions }

// Load implements mcp.SessionStore.
func (ss *Sessions) Load(ctx context.Context, id string) (*mcp.ServerSessionState, string, error) {
	if !ss.s.use("sessions") {
		return nil, "", nil
	}
	octx, cancel := ss.s.op(ctx)
	defer cancel()
	b, err := ss.s.rdb.Get(octx, ss.s.key("session", id)).Bytes()
	if err != nil {
		ss.s.failed("sessions", err)
		return nil, "", nil
	}
	var rec sessionRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, "", err
	}
	return rec.State, rec.User, nil
}

// Store implements mcp.SessionStore; the session is kept for SessionTTL
// after its last change.
func (ss *Sessions) Store(ctx context.Context, id, user string, st *mcp.ServerSessionState) error {
	if !ss.s.use("sessions") {
		return nil
	}
	b, err := json.Marshal(sessionRecord{User: user, State: st})
	if err != nil {
		return err
	}
	octx, cancel := ss.s.op(ctx)
	defer cancel()
	ss.s.failed("sessions", ss.s.rdb.Set(octx, ss.s.key("session", id), b, ss.s.opts.SessionTTL).Err())
	return nil
}

// Delete implements mcp.SessionStore: the session and its streams' events
// are forgotten.
func (ss *Sessions) Delete(ctx context.Context, id string) error {
	if !ss.s.use("sessions") {
		return nil
	}
	octx, cancel := ss.s.op(ctx)
	defer cancel()
	streams, err := ss.s.rdb.SMembers(octx, ss.s.key("streams", id)).Result()
	if ss.s.failed("sessions", err) {
		return nil
	}
	keys := []string{ss.s.key("session", id), ss.s.key("streams", id), ss.s.key("evoff", id)}
	for _, st := range streams {
		keys = append(keys, ss.s.key("events", id, st))
	}
	ss.s.failed("sessions", ss.s.rdb.Del(octx, keys...).Err())
	return nil
}

var _ mcp.SessionStore = (*Sessions)(nil)

// touchEvery is how often a session's keys have their expiry pushed back
// while the session is used: at most one Redis call a minute per session.
const touchEvery = time.Minute

// Touch keeps a session in use from expiring: its state and its list of
// streams are kept SessionTTL from now. Calls within touchEvery of the
// last one for the same session do nothing.
func (ss *Sessions) Touch(ctx context.Context, id string) {
	now := time.Now()
	if last, ok := ss.touched.Load(id); ok && now.Sub(last.(time.Time)) < touchEvery {
		return
	}
	ss.touched.Store(id, now)
	if ss.n.Add(1)%1024 == 0 {
		ss.touched.Range(func(k, v any) bool {
			if now.Sub(v.(time.Time)) >= touchEvery {
				ss.touched.Delete(k)
			}
			return true
		})
	}
	if !ss.s.use("sessions") {
		return
	}
	octx, cancel := ss.s.op(ctx)
	defer cancel()
	p := ss.s.rdb.Pipeline()
	p.PExpire(octx, ss.s.key("session", id), ss.s.opts.SessionTTL)
	p.PExpire(octx, ss.s.key("streams", id), ss.s.opts.SessionTTL)
	_, err := p.Exec(octx)
	ss.s.failed("sessions", err)
}
