package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// codeServerBusy is the JSON-RPC error of a call refused at a cap (the
// spec reserves -32000 to -32099 for server errors).
const codeServerBusy = -32000

// callLimits caps the calls running at once, over all and on each backend.
// A call over the total cap is refused at once; a call over its backend's
// cap waits for a slot, at most queueWait, behind at most queue others,
// and is then refused with when to retry: a short burst above the cap (200
// callers of one tool) is served a moment later instead of failing, while
// a backend that stays slow does not pile up requests nobody may still
// want.
type callLimits struct {
	max, perBackend int64 // negative: no cap
	queue           int64 // callers waiting for a backend slot, at most
	queueWait       time.Duration
	running         atomic.Int64
	backends        map[string]*backendSlots // by backend; fixed at construction
	backendOf       map[string]string        // tool name to backend
}

// backendSlots are the calls running on one backend and those waiting.
type backendSlots struct {
	slots   chan struct{}
	waiting atomic.Int64
}

// newCallLimits builds the caps for s's tools.
func newCallLimits(s *runtime.Server, o HTTPOptions) *callLimits {
	l := &callLimits{max: int64(o.MaxCalls), perBackend: int64(o.MaxCallsPerBackend), queue: int64(o.BackendQueue),
		queueWait: o.BackendQueueWait, backends: map[string]*backendSlots{}, backendOf: s.ToolBackends()}
	if l.perBackend < 0 {
		return l
	}
	for _, b := range l.backendOf {
		if l.backends[b] == nil {
			l.backends[b] = &backendSlots{slots: make(chan struct{}, l.perBackend)}
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
			if name, ok := l.backendOf[r.Params.Name]; ok && l.backends[name] != nil {
				if err := l.backends[name].acquire(ctx, l.queue, l.queueWait); err != nil {
					return nil, l.busy(name, err)
				}
				defer l.backends[name].release()
			}
		}
		return next(ctx, method, req)
	}
}

// errQueueFull: no place to wait for a slot.
var errQueueFull = errors.New("queue full")

// acquire takes a slot, waiting for one at most wait behind at most queue
// other callers.
func (b *backendSlots) acquire(ctx context.Context, queue int64, wait time.Duration) error {
	select {
	case b.slots <- struct{}{}:
		return nil
	default:
	}
	if wait <= 0 || queue < 0 || !take(&b.waiting, queue) {
		return errQueueFull
	}
	defer b.waiting.Add(-1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case b.slots <- struct{}{}:
		return nil
	case <-t.C:
		return context.DeadlineExceeded
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *backendSlots) release() { <-b.slots }

// busy is the refusal of a call that found no slot on backend name: it
// says how long to wait before retrying, in words and in its data.
func (l *callLimits) busy(name string, err error) error {
	retry := max(l.queueWait, time.Second)
	why := fmt.Sprintf("%d calls are running on it and %d waiting", l.perBackend, l.queue)
	if errors.Is(err, context.DeadlineExceeded) {
		why = fmt.Sprintf("%d calls are running on it and none ended within %s", l.perBackend, l.queueWait)
	}
	data, _ := json.Marshal(map[string]any{"backend": name, "retryAfterMs": retry.Milliseconds()})
	return &jsonrpc.Error{Code: codeServerBusy, Data: data, Message: fmt.Sprintf(
		"backend %q busy: %s (server.http.max_calls_per_backend); retry in %s", name, why, retry)}
}

// take counts one more on n unless that passes max (negative: no cap).
func take(n *atomic.Int64, max int64) bool {
	if v := n.Add(1); max >= 0 && v > max {
		n.Add(-1)
		return false
	}
	return true
}

var _ mcp.Middleware = (*callLimits)(nil).middleware
