package runtime

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/spec"
)

// Defaults of a backend's readiness.
const (
	DefaultProbeInterval = 10 * time.Second
	DefaultProbeTimeout  = 2 * time.Second
)

// backendOps reads what mcpgen itself does with the named backend: its
// concurrency limit and its readiness probe.
func (b *builder) backendOps(f *load.File, path, name string, h *spec.Handler, value any) {
	if l := b.concurrency(f, path+".concurrency", h.Concurrency); l != nil {
		b.srv.ops.backends[name] = l
	}
	r := h.Readiness
	if r == nil {
		return
	}
	p, ok := value.(handlers.Pinger)
	if !ok {
		b.errorf(f, path+".readiness", "backends of kind %s cannot be probed", h.Kind)
		return
	}
	if r.ProbeInterval < 0 || r.Timeout < 0 {
		b.errorf(f, path+".readiness", "probe_interval and timeout must not be negative")
		return
	}
	redact := b.redact
	b.srv.probes = append(b.srv.probes, observe.Probe{Name: name, Required: r.Required,
		Every:   cmp.Or(time.Duration(r.ProbeInterval), DefaultProbeInterval),
		Timeout: cmp.Or(time.Duration(r.Timeout), DefaultProbeTimeout),
		Check: func(ctx context.Context) error {
			if err := p.Ping(ctx); err != nil {
				return errors.New(redact.Apply(err.Error()))
			}
			return nil
		}})
}

// Probes returns the readiness probes of the backends that declare
// `readiness`, for /readyz. Under Live, each probes the backend of that
// name in the config being served, whichever reload opened it.
func (s *Server) Probes() []observe.Probe {
	if s.live == nil {
		return s.probes
	}
	out := slices.Clone(s.probes)
	for i := range out {
		name := out[i].Name
		out[i].Check = func(ctx context.Context) error {
			for _, p := range s.live.Current().probes {
				if p.Name == name {
					return p.Check(ctx)
				}
			}
			return nil // no longer in the config: nothing to wait for
		}
	}
	return out
}

// metricNames returns the names that metrics may use as label values: the
// tools, and the backends tools report to (a named backend, or the kind of
// a handler without one).
func (s *Server) metricNames() (tools, backends []string) {
	seen := map[string]bool{}
	for _, t := range s.tools {
		tools = append(tools, t.def.Name)
		if t.backend != "" {
			seen[t.backend] = true
		}
	}
	for name := range s.backends {
		seen[name] = true
	}
	return tools, slices.Sorted(maps.Keys(seen))
}

// Observer returns what the server reports metrics and traces to.
func (s *Server) Observer() *observe.Observer { return s.obs }
