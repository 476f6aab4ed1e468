package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// newLogger returns the operator log on w in format text or json.
func newLogger(w io.Writer, format string, level slog.Level) (*slog.Logger, bool) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), true
	case "json":
		opts.ReplaceAttr = durationText
		return slog.New(slog.NewJSONHandler(w, opts)), true
	}
	return nil, false
}

// durationText writes a duration as text ("3.2ms"), as the text format
// and the README do, where JSON would have integer nanoseconds.
func durationText(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.StringValue(a.Value.Duration().String())
	}
	return a
}

// startTracing turns tracing on when the OpenTelemetry environment asks
// for it (observe.TracingWanted); the returned function flushes and stops
// it. Without it, tracing costs nothing.
func startTracing(ctx context.Context, srv *runtime.Server, console io.Writer) (func(), error) {
	if !observe.TracingWanted(os.Getenv) {
		return func() {}, nil
	}
	info := srv.Info()
	tp, err := observe.NewTracerProvider(ctx, info.Name, info.Version, console)
	if err != nil {
		return nil, err
	}
	srv.Observer().Tracer = observe.Tracer(tp)
	srv.Logger().Info("tracing on", "exporter", os.Getenv("OTEL_TRACES_EXPORTER"))
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			srv.Logger().Warn("flushing traces", "err", err)
		}
	}, nil
}

// serveOps serves /metrics, /readyz and /healthz at addr until ctx ends.
func serveOps(ctx context.Context, srv *runtime.Server, addr string, logger *slog.Logger) {
	err := transport.ListenOps(ctx, srv, addr, func(a net.Addr) {
		logger.Info("serving metrics and probes", "url", "http://"+a.String()+transport.MetricsPath)
	})
	if err != nil {
		logger.Error("serving metrics", "err", err)
	}
}
