package runtime

import (
	"context"
	"reflect"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// observeMiddleware is the outermost of the server's own middleware: for
// every request it counts the request and the calls in flight, starts the
// request's span (continuing the client's trace), and for tools/call puts
// the call's record on the context (observe.Call), from which backends
// report and the call's log line and metrics are written.
func (s *Server) observeMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		m := s.plan.Obs.Metrics
		m.InFlight(1)
		defer m.InFlight(-1)
		_, target := callTarget(method, req)
		var span *observe.Request
		if s.plan.Obs.Tracer != nil {
			ctx, span = s.plan.Obs.StartRequest(ctx, method, target, requestHeader(req), requestMeta(req))
		}
		var call *observe.Call
		var t *plan.Tool
		if method == "tools/call" {
			t = s.plan.ToolIndex[target]
			backend := ""
			if t != nil {
				backend = t.Backend
			}
			call = s.plan.Obs.NewCall(backend)
			ctx = observe.WithCall(ctx, call)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		out := outcome(res, err)
		if o := call.Outcome(); o != "" && err == nil {
			out = o
		}
		if method == "tools/call" {
			m.ToolCall(target, out, time.Since(start))
		}
		result := "ok"
		if err != nil {
			result = "error"
		}
		m.Request(method, result)
		span.End(out, err)
		return res, err
	}
}

// requestHeader returns the HTTP headers a request came with, or nil.
func requestHeader(req mcp.Request) map[string][]string {
	if extra := req.GetExtra(); extra != nil {
		return extra.Header
	}
	return nil
}

// requestMeta returns a request's _meta, or nil.
func requestMeta(req mcp.Request) map[string]any {
	p := req.GetParams()
	if p == nil || reflect.ValueOf(p).IsNil() { // a typed nil: no params sent
		return nil
	}
	return p.GetMeta()
}
