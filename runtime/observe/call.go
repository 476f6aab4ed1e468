package observe

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// Backend kinds, as label values.
const (
	KindHTTP  = "http"
	KindSQL   = "sql"
	KindShell = "shell"
)

// Observer is where a server reports what it does: metrics, traces. A nil
// *Observer, or one with nil parts, reports nothing, at no cost.
type Observer struct {
	// Metrics, or nil for none.
	Metrics *Metrics
	// Tracer makes spans, or nil for no tracing.
	Tracer trace.Tracer
}

// nothing observes nothing.
var nothing Observer

// Call is the record of one MCP request being handled, carried on its
// context: backends report to it what they did.
type Call struct {
	obs     *Observer
	backend string // the backend label of the tool's calls

	mu      sync.Mutex
	status  string // the outcome of the last backend request
	outcome string // set when the call did not run: refused, cached
}

type callKey struct{}

// NewCall returns the record of a request whose tool uses backend (a
// backend name, or the kind of a handler without one).
func (o *Observer) NewCall(backend string) *Call {
	if o == nil {
		o = &nothing
	}
	return &Call{obs: o, backend: backend}
}

// WithCall returns ctx carrying c.
func WithCall(ctx context.Context, c *Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// CallFrom returns the record ctx carries, or nil.
func CallFrom(ctx context.Context) *Call {
	c, _ := ctx.Value(callKey{}).(*Call)
	return c
}

// BackendStatus returns the outcome of the call's last backend request
// (e.g. "200", "exit 2", "error"), or "" when none was made.
func (c *Call) BackendStatus() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// SetOutcome marks a call that did not run as usual: "refused" (a limit)
// or "cached" (answered from the cache).
func (c *Call) SetOutcome(outcome string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.outcome = outcome
	c.mu.Unlock()
}

// Outcome returns what SetOutcome set, or "".
func (c *Call) Outcome() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.outcome
}

// Op is one request to a backend, from Backend to one of its End methods.
// A nil *Op (nothing observed) does nothing.
type Op struct {
	call  *Call
	kind  string
	start time.Time
	span  trace.Span
}

// Backend starts a request to a backend of kind (KindHTTP, KindSQL,
// KindShell) for the call ctx carries. It returns nil, at no cost, when
// nothing observes the call. With tracing on, the returned context holds
// the backend's span.
func Backend(ctx context.Context, kind string) (context.Context, *Op) {
	c := CallFrom(ctx)
	if c == nil {
		return ctx, nil
	}
	op := &Op{call: c, kind: kind, start: time.Now()}
	if t := c.obs.Tracer; t != nil {
		ctx, op.span = t.Start(ctx, kind+" "+c.backend, trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(attribute.String("mcpgen.backend", c.backend)))
	}
	return ctx, op
}

// HTTPRequest describes the request about to be sent, and puts the trace
// context in its headers (W3C traceparent) when tracing is on. The URL is
// recorded without its query and credentials.
func (o *Op) HTTPRequest(req *http.Request) {
	if o == nil || o.span == nil {
		return
	}
	u := *req.URL
	u.RawQuery, u.User, u.Fragment = "", nil, ""
	attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(req.Method), semconv.URLFullKey.String(u.String()),
		semconv.ServerAddressKey.String(u.Hostname())}
	if p, err := strconv.Atoi(u.Port()); err == nil {
		attrs = append(attrs, semconv.ServerPortKey.Int(p))
	}
	o.span.SetAttributes(attrs...)
	req.Header = req.Header.Clone() // the request's headers may be shared by calls
	propagator.Inject(trace.ContextWithSpan(req.Context(), o.span), propagation.HeaderCarrier(req.Header))
}

// EndHTTP ends an HTTP request: status is the response's status code, or
// 0 when none came (err says why).
func (o *Op) EndHTTP(status int, err error) {
	if o == nil {
		return
	}
	outcome := "error"
	if status > 0 {
		outcome = strconv.Itoa(status/100) + "xx"
		o.setStatus(strconv.Itoa(status))
	} else {
		o.setStatus("error")
	}
	if o.span != nil {
		if status > 0 {
			o.span.SetAttributes(semconv.HTTPResponseStatusCode(status))
		}
		if status >= 500 || status == 0 {
			o.fail(outcome, err)
		}
	}
	o.end(outcome)
}

// EndSQL ends a database request on system (postgresql, mysql, sqlite):
// outcome is ok, error, timeout or unavailable.
func (o *Op) EndSQL(system, outcome string, err error) {
	if o == nil {
		return
	}
	o.setStatus(outcome)
	if o.span != nil {
		o.span.SetAttributes(semconv.DBSystemNameKey.String(system))
		if outcome != "ok" {
			o.fail(outcome, err)
		}
	}
	o.end(outcome)
}

// EndProcess ends a command run: exe is the program's name, code its exit
// status (-1 when it did not exit by itself), outcome ok, exit (a status
// that means failure), signal, timeout or error.
func (o *Op) EndProcess(exe string, code int, outcome string) {
	if o == nil {
		return
	}
	if code >= 0 {
		o.setStatus("exit " + strconv.Itoa(code))
	} else {
		o.setStatus(outcome)
	}
	if o.span != nil {
		o.span.SetAttributes(semconv.ProcessExecutableNameKey.String(exe))
		if code >= 0 {
			o.span.SetAttributes(semconv.ProcessExitCodeKey.Int(code))
		}
		if outcome != "ok" {
			o.fail(outcome, nil)
		}
	}
	o.end(outcome)
}

func (o *Op) setStatus(s string) {
	o.call.mu.Lock()
	o.call.status = s
	o.call.mu.Unlock()
}

func (o *Op) fail(errType string, err error) {
	o.span.SetAttributes(semconv.ErrorTypeKey.String(errType))
	msg := errType
	if err != nil {
		msg = err.Error()
	}
	o.span.SetStatus(codes.Error, msg)
}

func (o *Op) end(outcome string) {
	o.call.obs.Metrics.BackendRequest(o.call.backend, o.kind, outcome, time.Since(o.start))
	if o.span != nil {
		o.span.End()
	}
}
