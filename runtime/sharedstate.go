package runtime

import (
	"cmp"
	"net"
	"time"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/redisstate"
	"github.com/mcpgen/mcpgen/spec"
)

// stateProbeEvery is how often /readyz checks the shared state's Redis.
const stateProbeEvery = 5 * time.Second

// stateConfig checks server.state; the Redis it names is connected once
// the build has succeeded (shareState).
func (b *builder) stateConfig(f *load.File, st *spec.State) {
	if st == nil || st.Redis == nil {
		return
	}
	r := st.Redis
	p := "server.state.redis"
	ok := true
	if _, port, err := net.SplitHostPort(r.Addr); err != nil || port == "" {
		b.diag(f, load.Error, p+".addr", "addr must be host:port", "e.g. redis:6379 or 127.0.0.1:6379")
		ok = false
	}
	if r.DB < 0 {
		b.errorf(f, p+".db", "db must not be negative")
		ok = false
	}
	if ok {
		b.redis = r
	}
}

// shareState connects the server's stores to Redis when server.state
// says so, each keeping its in-memory store as the fallback for when Redis
// is down, and makes Redis part of /readyz's detail (not required: the
// replica serves without it).
func (b *builder) shareState() {
	r := b.redis
	if r == nil {
		return
	}
	s := b.srv
	st := redisstate.New(redisstate.Options{Addr: r.Addr, Username: r.Username, Password: r.Password, DB: r.DB,
		TLS: r.TLS, Prefix: cmp.Or(r.Prefix, "mcpgen:"+s.info.Name+":"), Timeout: time.Duration(r.Timeout),
		SessionTTL: time.Duration(r.SessionTTL), Logger: s.logger})
	s.shared = st
	s.closers = append(s.closers, st)
	if b.opts.RateLimiter == nil {
		s.limits.store = st.Limiter(s.limits.store)
	}
	if b.opts.Cache == nil && s.ops.cache != nil {
		s.ops.cache = st.Cache(s.ops.cache)
	}
	if b.opts.TaskStore == nil {
		b.opts.TaskStore = st.Tasks(nil)
	}
	if m := s.obs.Metrics; m != nil {
		st.Register(m.Registry())
	}
	s.probes = append(s.probes, observe.Probe{Name: "shared state (redis)", Every: stateProbeEvery,
		Timeout: cmp.Or(time.Duration(r.Timeout), redisstate.DefaultTimeout), Check: st.Check})
}

// SharedState returns the state the server shares with other replicas in
// Redis (server.state.redis), or nil when it keeps its state in memory.
func (s *Server) SharedState() *redisstate.State { return s.shared }
