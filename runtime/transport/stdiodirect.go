package transport

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// On stdio a tools/call is answered by the goroutine that read it, once it
// has started another to go on reading (stdioConn.readLoop), through
// mcp.ServerSession.Answer: the same checks and receiving
// middleware as the go-sdk's connection applies, without its reader and
// queue goroutines in between. Everything the call sends the client (logs,
// progress, requests such as elicitation) still goes through the session's
// connection, and the client's answers come back through it, as the
// reading loop delivers every other message there. The one thing the
// connection did for a request that is done here instead is canceling it
// on notifications/cancelled.

// stdioDirect holds the session and the calls answered directly.
type stdioDirect struct {
	session atomic.Pointer[mcp.ServerSession]
	ctx     context.Context // the session's: calls end with it

	mu      sync.Mutex
	running map[jsonrpc.ID]context.CancelCauseFunc
}

// errCancelledByPeer is the cause of a direct call's cancellation by a
// notifications/cancelled: the call then gets no response.
var errCancelledByPeer = errors.New("cancelled by the client")

// serveDirect answers tools/call requests directly from now on, on session
// ss, whose calls end with ctx.
func (c *stdioConn) serveDirect(ctx context.Context, ss *mcp.ServerSession) {
	c.direct.mu.Lock()
	c.direct.ctx, c.direct.running = ctx, map[jsonrpc.ID]context.CancelCauseFunc{}
	c.direct.mu.Unlock()
	c.direct.session.Store(ss)
}

// answerDirect returns the function that answers msg, if it is a
// tools/call the session is ready for; the call is cancelable from the
// moment it returns. It also cancels a call that a
// notifications/cancelled names, and then returns nil: the go-sdk sees
// the notification too.
func (c *stdioConn) answerDirect(msg jsonrpc.Message) func() {
	req, ok := msg.(*jsonrpc.Request)
	ss := c.direct.session.Load()
	if !ok || ss == nil {
		return nil
	}
	if req.Method == "notifications/cancelled" {
		c.cancelDirect(req.Params)
		return nil
	}
	if req.Method != "tools/call" || !req.IsCall() || !ready(ss, req) {
		return nil
	}
	c.direct.mu.Lock()
	ctx, cancel := context.WithCancelCause(c.direct.ctx)
	c.direct.running[req.ID] = cancel
	c.direct.mu.Unlock()
	return func() {
		defer cancel(nil)
		var rb resultBuffer
		resp := ss.Answer(ctx, req, rb.encode)
		c.direct.mu.Lock()
		delete(c.direct.running, req.ID)
		c.direct.mu.Unlock()
		if errors.Is(context.Cause(ctx), errCancelledByPeer) {
			c.Retire(ctx, req.ID) // the client asked for no answer
		} else {
			_ = c.Write(ctx, resp) // copies the result into its line
		}
		rb.release()
	}
}

// ready reports whether the session may answer req at once: it was
// initialized, or req carries its protocol version (2026-07-28). A call of
// a client that did not wait for its initialize answer goes to the
// go-sdk's queue, behind the initialize.
func ready(ss *mcp.ServerSession, req *jsonrpc.Request) bool {
	return ss.InitializeParams() != nil || jsonField(jsonField(req.Params, "_meta"), metaVersionKey) != nil
}

// cancelDirect cancels the direct call that the params of a
// notifications/cancelled name, if one runs.
func (c *stdioConn) cancelDirect(params json.RawMessage) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	if err != nil {
		return
	}
	c.direct.mu.Lock()
	cancel := c.direct.running[id]
	c.direct.mu.Unlock()
	if cancel != nil {
		cancel(errCancelledByPeer)
	}
}
