package transport

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// stdioTransport is the mcp.Transport of stdio serving. Unlike the SDK's
// IOTransport, no input ends it but the end of input: a malformed frame is
// answered (or dropped and logged) and reading goes on.
type stdioTransport struct {
	conn *stdioConn
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// stdioConn reads one JSON-RPC message per line and writes one per line.
type stdioConn struct {
	frames *frameReader
	out    io.Writer
	logger *slog.Logger
	p      *pending
	onEOF  func() // runs when input ends, before Read reports it

	incoming  chan readResult
	done      chan struct{}
	closeOnce sync.Once

	// direct answers tools/call requests without the go-sdk's connection
	// (stdiodirect.go), once the session is known
	direct stdioDirect

	wmu         sync.Mutex // serializes writes to out
	initMu      sync.Mutex
	initID      jsonrpc.ID // the id of the initialize request
	initialized bool       // initialize was answered with success
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

func newStdioConn(in io.Reader, out io.Writer, maxFrame int, logger *slog.Logger, p *pending) *stdioConn {
	return &stdioConn{frames: newFrameReader(in, maxFrame), out: out, logger: logger, p: p,
		incoming: make(chan readResult), done: make(chan struct{})}
}

// start begins reading input. It is separate from construction so that
// onEOF can be set first.
func (c *stdioConn) start() { go c.readLoop() }

// Read returns the next well-formed message.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.done:
		return nil, io.EOF
	}
}

func (c *stdioConn) readLoop() {
	// Each call is answered on the goroutine that read it, and a new one
	// reads on if the call runs long (below): grown now, while its stack
	// holds one frame, a reader decodes its messages and answers its
	// calls without growing again, where it would copy the frames of the
	// JSON decoder, then those of the call (presized).
	growStack()
	for {
		line, err := c.frames.next()
		var big *tooLargeError
		switch {
		case errors.As(err, &big):
			c.refuse(big.reply(), nil)
			continue
		case err != nil:
			if errors.Is(err, io.EOF) && c.onEOF != nil {
				c.onEOF()
			}
			c.deliver(readResult{err: err})
			return
		}
		msg, ferr := decodeFrame(line)
		if ferr != nil {
			c.refuse(ferr, line)
			continue
		}
		if msg == nil {
			continue
		}
		c.track(msg)
		if answer := c.answerDirect(msg); answer != nil {
			// The call is answered here, on the thread that is awake
			// and holds what it read: handing it to a new goroutine
			// would add a thread's wake-up to every answer. Once it is
			// answered this goroutine reads on, unless the call lasted
			// longer than readOnAfter: a new reader has then started,
			// so that a long call holds up neither the calls nor the
			// cancellations behind it. Starting that reader at once
			// would also wake a thread per call, on the way to its
			// answer.
			reader := time.AfterFunc(readOnAfter, c.readLoop)
			answer()
			if !reader.Stop() {
				return // the new reader reads on
			}
			continue
		}
		if !c.deliver(readResult{msg: msg}) {
			return
		}
	}
}

// readOnAfter is how long a call answered by a reader may run before
// another reader starts.
const readOnAfter = time.Millisecond

func (c *stdioConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.done:
		return false
	}
}

// track counts requests for draining and notes the initialize request.
func (c *stdioConn) track(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return
	}
	c.p.add(1, 0)
	if req.Method == "initialize" {
		c.initMu.Lock()
		c.initID = req.ID
		c.initMu.Unlock()
	}
}

// refuse answers a malformed frame when it carries an id to answer, and
// logs it otherwise. A batch gets one error per request in it.
func (c *stdioConn) refuse(ferr *frameError, line []byte) {
	var reply any
	switch {
	case ferr.message == msgBatch:
		if rs := batchReplies(line); len(rs) > 0 {
			replies := make([]errorReply, len(rs))
			for i := range rs {
				replies[i] = rs[i].reply()
			}
			reply = replies
		}
	case ferr.id != nil:
		reply = ferr.reply()
	}
	if reply == nil {
		c.logger.Warn("dropped a malformed message", "reason", ferr.message, "bytes", len(line))
		return
	}
	c.logger.Debug("refused a malformed message", "reason", ferr.message)
	b, err := json.Marshal(reply)
	if err == nil {
		err = c.write(append(b, '\n'))
	}
	if err != nil {
		c.logger.Warn("answering a malformed message", "err", err)
	}
}

// Write writes one message. A response that cannot be encoded (it holds
// invalid JSON) is replaced by an internal error, so that no output line is
// ever invalid JSON and the session survives. (A result comes checked from
// the go-sdk, which encoded it; see encodeLine.)
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		resp = c.fixResponse(resp)
		msg = resp
	}
	line, err := encodeLine(msg)
	if err != nil && isResp {
		c.logger.Error("a response could not be encoded; sent an internal error instead", "err", err)
		line, err = encodeLine(&jsonrpc.Response{ID: resp.ID,
			Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the response could not be encoded"}})
	}
	if err != nil {
		c.logger.Error("dropped a message that could not be encoded", "err", err)
		return nil
	}
	err = c.write(line)
	if isResp {
		c.p.add(0, 1)
	}
	return err
}

// Retire counts a request that gets no response, because the client
// cancelled it (the go-sdk's connection answers it no more), as answered:
// input that ends then is not held up waiting for its response.
func (c *stdioConn) Retire(context.Context, jsonrpc.ID) { c.p.add(0, 1) }

// fixResponse gives an error without a JSON-RPC code one (the SDK sends 0
// for a request before initialize) and makes its data valid JSON.
func (c *stdioConn) fixResponse(r *jsonrpc.Response) *jsonrpc.Response {
	c.initMu.Lock()
	if r.Error == nil && r.ID == c.initID && c.initID.IsValid() {
		c.initialized = true
	}
	initialized := c.initialized
	c.initMu.Unlock()
	if r.Error == nil {
		return r
	}
	code := int64(jsonrpc.CodeInvalidRequest)
	if initialized {
		code = jsonrpc.CodeInternalError
	}
	return &jsonrpc.Response{ID: r.ID, Result: r.Result, Error: safeWireError(r.Error, code)}
}

// write writes line, which ends with its newline, in one Write.
func (c *stdioConn) write(line []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(line)
	return err
}

// Close stops delivering input. The reading goroutine ends with the input
// or at its next frame.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.done) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *stdioConn) SessionID() string { return "" }

var (
	_ mcp.Connection = (*stdioConn)(nil)
	_ mcp.Transport  = (*stdioTransport)(nil)
)
