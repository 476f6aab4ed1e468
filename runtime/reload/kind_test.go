package reload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/handlers"
)

// pools records the shared backends of the test kind: which were opened
// and which closed.
type pools struct {
	mu     sync.Mutex
	opened []*pool
	gate   chan struct{} // a call with wait: true blocks until it is closed
}

type pool struct {
	label  string
	closed atomic.Bool
}

func (p *pool) Close() error { p.closed.Store(true); return nil }

// Ping fails once the pool is closed.
func (p *pool) Ping(context.Context) error {
	if p.closed.Load() {
		return errors.New("pool closed")
	}
	return nil
}

func (ps *pools) all() []*pool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return append([]*pool(nil), ps.opened...)
}

type poolBackend struct {
	Label string `yaml:"label"`
	ps    *pools
}

func (b *poolBackend) Open(handlers.BuildEnv) any {
	p := &pool{label: b.Label}
	b.ps.mu.Lock()
	b.ps.opened = append(b.ps.opened, p)
	b.ps.mu.Unlock()
	return p
}

type poolConfig struct {
	Wait bool `yaml:"wait"`
	ps   *pools
}

func (c *poolConfig) Build(env handlers.BuildEnv) handlers.Handler {
	v, err := env.Backend("")
	if err != nil {
		env.Diag("", err.Error())
		return nil
	}
	return &poolHandler{p: v.(*pool), wait: c.Wait, gate: c.ps.gate}
}

type poolHandler struct {
	p    *pool
	wait bool
	gate chan struct{}
}

// Call answers which pool served it, failing when the pool was closed
// under it.
func (h *poolHandler) Call(ctx context.Context, _ *handlers.Call) (*handlers.Result, error) {
	if h.wait {
		select {
		case <-h.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if h.p.closed.Load() {
		return nil, errors.New("pool closed under a call")
	}
	return handlers.TextResult(fmt.Sprintf("pool %s", h.p.label)), nil
}

func poolRegistry(ps *pools) *handlers.Registry {
	return handlers.NewRegistry(handlers.Kind{Name: "pool", Doc: "A pool.",
		NewConfig:  func() handlers.Config { return &poolConfig{ps: ps} },
		NewBackend: func() handlers.BackendConfig { return &poolBackend{ps: ps} }})
}

var _ handlers.Handler = (*poolHandler)(nil)
