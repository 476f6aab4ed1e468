package observe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// propagator reads and writes W3C trace context (traceparent, tracestate).
var propagator = propagation.TraceContext{}

// TracingWanted reports whether the standard OpenTelemetry environment
// asks for traces: OTEL_TRACES_EXPORTER names an exporter other than none,
// or an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). OTEL_SDK_DISABLED=true turns it off.
func TracingWanted(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	if e := getenv("OTEL_TRACES_EXPORTER"); e != "" {
		return e != "none"
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// NewTracerProvider builds a tracer provider exporting as the standard
// OpenTelemetry environment variables say (OTEL_TRACES_EXPORTER,
// OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_TRACES_SAMPLER...). The console exporter writes to console, never to
// stdout, which may carry the protocol.
func NewTracerProvider(ctx context.Context, service, version string, console io.Writer) (*sdktrace.TracerProvider, error) {
	exp, err := spanExporter(ctx, os.Getenv, console)
	if err != nil {
		return nil, fmt.Errorf("trace exporter: %w", err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceNameKey.String(service), semconv.ServiceVersionKey.String(version)))
	if err != nil && !errors.Is(err, resource.ErrSchemaURLConflict) {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	// the environment (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) wins
	if env, err := resource.New(ctx, resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	return sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res)), nil
}

// spanExporter is the exporter the environment asks for. mcpgen carries
// two: OTLP over HTTP (protobuf), which every collector and tracing
// backend takes, and the console. OTLP over gRPC, with its gRPC stack, is
// not built in: asking for it is an error that says what to set instead.
func spanExporter(ctx context.Context, getenv func(string) string, console io.Writer) (sdktrace.SpanExporter, error) {
	switch exporter := getenv("OTEL_TRACES_EXPORTER"); exporter {
	case "console":
		return stdouttrace.New(stdouttrace.WithWriter(console))
	case "", "otlp":
	default:
		return nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: mcpgen exports traces with otlp (OTLP over HTTP) or console", exporter)
	}
	protocol := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if protocol != "" && protocol != "http/protobuf" {
		return nil, fmt.Errorf("OTLP protocol %q: mcpgen exports traces over http/protobuf only; "+
			"unset OTEL_EXPORTER_OTLP_PROTOCOL and point OTEL_EXPORTER_OTLP_ENDPOINT at the collector's OTLP/HTTP port (4318)", protocol)
	}
	return otlptracehttp.New(ctx) // reads OTEL_EXPORTER_OTLP_* itself
}

// Tracer returns mcpgen's tracer from a provider.
func Tracer(tp trace.TracerProvider) trace.Tracer {
	return tp.Tracer("github.com/mcpgen/mcpgen")
}

// metaCarrier reads trace context from an MCP request's _meta.
type metaCarrier map[string]any

func (m metaCarrier) Get(k string) string { s, _ := m[k].(string); return s }
func (m metaCarrier) Set(string, string)  {}
func (m metaCarrier) Keys() []string      { return []string{"traceparent", "tracestate"} }

// Request is one MCP request being traced.
type Request struct{ span trace.Span }

// StartRequest starts the span of one MCP request, continuing the trace
// the client passed: `traceparent` in the request's _meta first, else the
// HTTP request's headers. It returns nil when tracing is off.
func (o *Observer) StartRequest(ctx context.Context, method, target string, header http.Header, meta map[string]any) (context.Context, *Request) {
	if o == nil || o.Tracer == nil {
		return ctx, nil
	}
	parent := propagator.Extract(ctx, metaCarrier(meta))
	if !trace.SpanContextFromContext(parent).IsValid() && header != nil {
		parent = propagator.Extract(ctx, propagation.HeaderCarrier(header))
	}
	name := method
	attrs := []attribute.KeyValue{attribute.String("mcp.method.name", method)}
	if target != "" {
		name += " " + target
		if method == "tools/call" {
			attrs = append(attrs, attribute.String("gen_ai.tool.name", target))
		}
	}
	ctx, span := o.Tracer.Start(parent, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
	return ctx, &Request{span: span}
}

// End ends the request's span; outcome is ok, error (a protocol error) or
// a tool's outcome.
func (r *Request) End(outcome string, err error) {
	if r == nil {
		return
	}
	r.span.SetAttributes(attribute.String("mcpgen.outcome", outcome))
	if err != nil {
		r.span.SetStatus(codes.Error, err.Error())
	} else if outcome != "ok" && outcome != "cached" {
		r.span.SetStatus(codes.Error, outcome)
	}
	r.span.End()
}

// Step starts the span of one step of a tool (log, sample, elicit...); the
// returned function ends it. Without tracing, it costs nothing.
func Step(ctx context.Context, kind string) (context.Context, func(error)) {
	c := CallFrom(ctx)
	if c == nil || c.obs.Tracer == nil {
		return ctx, func(error) {}
	}
	ctx, span := c.obs.Tracer.Start(ctx, "step "+kind, trace.WithAttributes(attribute.String("mcpgen.step", kind)))
	return ctx, func(err error) {
		if err != nil {
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}
}
