package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime"

	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/prometheus/client_golang/prometheus"
)

// probePaths are answered whatever the Host and Origin: probes and
// scrapers call a replica by its address, and nothing there reaches a tool.
var probePaths = map[string]bool{HealthzPath: true, ReadyzPath: true, MetricsPath: true}

// operate serves /readyz, probing the backends that declare readiness
// until ctx ends, and /metrics when the server has metrics, with the live
// sessions among them.
func (h *HTTPHandler) operate(ctx context.Context) {
	ready := observe.NewReadiness(h.srv.Probes())
	go ready.Run(ctx)
	h.mux.Handle(ReadyzPath, ready)
	m := h.srv.Observer().Metrics
	if m == nil {
		return
	}
	sessions := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mcpgen_sessions", Help: "Live MCP sessions."},
		func() float64 { return float64(h.SessionCount()) })
	reg := m.Registry()
	reg.Unregister(sessions) // a handler built again for the same metrics (a reload) replaces it
	_ = reg.Register(sessions)
	h.mux.Handle(MetricsPath, m.Handler())
}

// NewOpsHandler serves /healthz, /readyz and /metrics alone, for a
// listener of their own (`mcpgen serve --metrics-addr`): beside stdio, or
// to keep them off the MCP port. The backends are probed until ctx ends.
func NewOpsHandler(ctx context.Context, s *runtime.Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(HealthzPath, healthz)
	ready := observe.NewReadiness(s.Probes())
	go ready.Run(ctx)
	mux.Handle(ReadyzPath, ready)
	if m := s.Observer().Metrics; m != nil {
		mux.Handle(MetricsPath, m.Handler())
	}
	return mux
}

// ListenOps serves NewOpsHandler on addr until ctx ends.
func ListenOps(ctx context.Context, s *runtime.Server, addr string, onListen func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	if onListen != nil {
		onListen(ln.Addr())
	}
	hs := &http.Server{Handler: NewOpsHandler(ctx, s), ReadHeaderTimeout: DefaultReadHeaderTimeout,
		ErrorLog: slog.NewLogLogger(s.Logger().Handler(), slog.LevelWarn)}
	stop := context.AfterFunc(ctx, func() { _ = hs.Close() })
	defer stop()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// healthz answers liveness: the process serves, whatever its backends do.
func healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}
