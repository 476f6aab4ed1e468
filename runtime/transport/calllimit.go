package transport

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// codeServerBusy is the JSON-RPC error of a call refused at a cap (the
// spec reserves -32000 to -32099 for server errors).
const codeServerBusy = -32000

// callLimits caps the calls running at once, over all and on each backend.
// A call over a cap is refused at once rather than queued: the client can
// retry, and a queue would hold requests nobody may still want.
type callLimits struct {
	max, perBackend int64 // negative: no cap
	running         atomic.Int64
	backends        map[string]*atomic.Int64 // by backend; fixed at construction
	backendOf       map[string]string        // tool name to backend
}

// newCallLimits builds the caps for s's tools.
func newCallLimits(s *runtime.Server, max, perBackend int) *callLimits {
	l := &callLimits{max: int64(max), perBackend: int64(perBackend),
		backends: map[string]*atomic.Int64{}, backendOf: s.ToolBackends()}
	for _, b := range l.backendOf {
		if l.backends[b] == nil {
			l.backends[b] = new(atomic.Int64)
		}
	}
	return l
}

// capped are the methods that run configured work.
var capped = map[string]bool{"tools/call": true, "resources/read": true, "prompts/get": true, "completion/complete": true}

func (l *callLimits) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !capped[method] {
			return next(ctx, method, req)
		}
		if !take(&l.running, l.max) {
			return nil, &jsonrpc.Error{Code: codeServerBusy,
				Message: fmt.Sprintf("server busy: %d calls are running (server.http.max_calls); retry later", l.max)}
		}
		defer l.running.Add(-1)
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
			if name, ok := l.backendOf[r.Params.Name]; ok {
				n := l.backends[name]
				if !take(n, l.perBackend) {
					return nil, &jsonrpc.Error{Code: codeServerBusy, Message: fmt.Sprintf(
						"backend %q busy: %d calls are running on it (server.http.max_calls_per_backend); retry later", name, l.perBackend)}
				}
				defer n.Add(-1)
			}
		}
		return next(ctx, method, req)
	}
}

// take counts one more call on n unless that passes max.
func take(n *atomic.Int64, max int64) bool {
	if v := n.Add(1); max >= 0 && v > max {
		n.Add(-1)
		return false
	}
	return true
}

var _ mcp.Middleware = (*callLimits)(nil).middleware
