package runtime

import (
	"context"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/observe"
)

// Probes returns the readiness probes of the backends that declare
// `readiness`, for /readyz. Under Live, each probes the backend of that
// name in the config being served, whichever reload opened it.
func (s *Server) Probes() []observe.Probe {
	if s.live == nil {
		return s.plan.Probes
	}
	out := slices.Clone(s.plan.Probes)
	for i := range out {
		name := out[i].Name
		out[i].Check = func(ctx context.Context) error {
			for _, p := range s.live.Current().plan.Probes {
				if p.Name == name {
					return p.Check(ctx)
				}
			}
			return nil // no longer in the config: nothing to wait for
		}
	}
	return out
}

// Observer returns what the server reports metrics and traces to.
func (s *Server) Observer() *observe.Observer { return s.plan.Obs }
