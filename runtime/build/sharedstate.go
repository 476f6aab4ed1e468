package build

import (
	"cmp"
	"net"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/redisstate"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
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
	s := b.plan
	st := redisstate.New(redisstate.Options{Addr: r.Addr, Username: r.Username, Password: r.Password, DB: r.DB,
		TLS: r.TLS, Prefix: cmp.Or(r.Prefix, "mcpgen:"+s.Info.Name+":"), Timeout: time.Duration(r.Timeout),
		SessionTTL: time.Duration(r.SessionTTL), Logger: s.Logger})
	s.Shared = st
	s.Closers = append(s.Closers, st)
	if b.opts.RateLimiter == nil {
		s.Limits.Rates = st.Limiter(s.Limits.Rates)
	}
	if b.opts.Cache == nil && s.Limits.Results != nil {
		s.Limits.Results = st.Cache(s.Limits.Results)
	}
	if b.opts.TaskStore == nil {
		b.opts.TaskStore = st.Tasks(nil)
	}
	if m := s.Obs.Metrics; m != nil {
		st.Register(m.Registry())
	}
	s.Probes = append(s.Probes, observe.Probe{Name: "shared state (redis)", Every: stateProbeEvery,
		Timeout: cmp.Or(time.Duration(r.Timeout), redisstate.DefaultTimeout), Check: st.Check})
}

// backendKey fingerprints the settings of the shared backend h of f: its
// kind, its settings as written (positions aside, so an edit elsewhere in
// the file does not count), the directory relative paths start from, and
// the environment values the file read.
func backendKey(f *load.File, h *spec.Handler) string {
	var b strings.Builder
	b.WriteString(h.Kind + "\x00" + f.Dir + "\x00")
	if h.Body != nil {
		text, _ := yaml.Marshal(h.Body)
		b.Write(text)
	}
	for _, v := range f.Secrets.Values() {
		b.WriteString("\x00" + v)
	}
	return b.String()
}

// reuseBackend returns the backend name of the previous server, when its
// settings are those of key; the new server adopts it (takeOver).
func (b *builder) reuseBackend(name, key string) (any, bool) {
	prev := b.opts.Previous
	if prev == nil {
		return nil, false
	}
	c, ok := prev.Carry[name]
	if !ok || c.Key != key || c.Value == nil {
		return nil, false
	}
	b.plan.Carry[name] = c
	b.plan.Adopted = append(b.plan.Adopted, c.Value)
	return c.Value, true
}
