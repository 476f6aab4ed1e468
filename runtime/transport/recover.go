package transport

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// internalError is what a request whose handling panicked is answered.
var internalError = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error"}

// recovering is the outermost receiving middleware of every transport: a
// panic anywhere in a request's handling (mcpgen's middleware, a kind's
// Call, rendering) is recovered here, logged with its stack, counted, and
// answered -32603; the session and the server go on. The go-sdk runs
// requests on goroutines of its own, where an unrecovered panic would end
// the process and every session in it.
func recovering(log *slog.Logger, m *observe.Metrics) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				if v := recover(); v != nil {
					observe.Panicked(log, m, method, v)
					res, err = nil, internalError
				}
			}()
			return next(ctx, method, req)
		}
	}
}

// answerPanic, deferred by ServeHTTP, answers 500 to a request that
// panicked before it reached the go-sdk's dispatch (reading, checking or
// routing it), instead of net/http's dropped connection; the panic is
// logged and counted as for a dispatched request. http.ErrAbortHandler is
// net/http's own way to abort a response and goes on up.
func (h *HTTPHandler) answerPanic(w http.ResponseWriter) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	observe.Panicked(h.srv.Logger(), h.srv.Observer().Metrics, "", v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}` + "\n"))
}
