package transport

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
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
// It reads in the goroutine that calls Read, the go-sdk's reader, which
// then handles a request it read at once: nothing stands between the
// input and the handler. The input is pollable (pollableInput), so that
// Close and the end of Read's context interrupt a read that waits.
type stdioConn struct {
	frames *frameReader
	in     deadlineReader
	out    io.Writer
	logger *slog.Logger
	p      *pending
	onEOF  func() // runs when input ends, before Read reports it

	readMu    sync.Mutex // one Read at a time
	readErr   error      // the error that ended input, reported by every Read after
	watchOnce sync.Once
	done      chan struct{}
	closeOnce sync.Once

	wmu         sync.Mutex // serializes writes to out
	initMu      sync.Mutex
	initID      jsonrpc.ID // the id of the initialize request
	initialized bool       // initialize was answered with success
}

// newStdioConn reads from in (see stdioInput).
func newStdioConn(in deadlineReader, out io.Writer, maxFrame int, logger *slog.Logger, p *pending) *stdioConn {
	return &stdioConn{frames: newFrameReader(in, maxFrame), in: in, out: out, logger: logger, p: p,
		done: make(chan struct{})}
}

// Read returns the next well-formed message. A malformed one is answered
// (or dropped and logged) and reading goes on.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.watchOnce.Do(func() { context.AfterFunc(ctx, c.interrupt) }) // the go-sdk reads with one context
	c.readMu.Lock()
	defer c.readMu.Unlock()
	for c.readErr == nil {
		select {
		case <-c.done:
			return nil, io.EOF
		default:
		}
		line, err := c.frames.next()
		var big *tooLargeError
		switch {
		case errors.As(err, &big):
			c.refuse(big.reply(), nil)
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, io.EOF // closed
		case err != nil:
			if errors.Is(err, io.EOF) && c.onEOF != nil {
				c.onEOF()
			}
			c.readErr = err
			continue
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
		return msg, nil
	}
	return nil, c.readErr
}

// interrupt ends a read that waits for input.
func (c *stdioConn) interrupt() { _ = c.in.SetReadDeadline(time.Now()) }

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
// ever invalid JSON and the session survives.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, isResp := msg.(*jsonrpc.Response)
	if isResp {
		resp = c.fixResponse(resp)
		msg = resp
	}
	line, err := jsonrpc.EncodeMessage(msg)
	if err != nil && isResp {
		c.logger.Error("a response could not be encoded; sent an internal error instead", "err", err)
		line, err = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: resp.ID,
			Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the response could not be encoded"}})
	}
	if err != nil {
		c.logger.Error("dropped a message that could not be encoded", "err", err)
		return nil
	}
	err = c.write(append(line, '\n'))
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

// Close stops delivering input: a Read that waits returns io.EOF.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.done)
		c.interrupt()
	})
	return nil
}

// SessionID is empty: stdio has one session.
func (c *stdioConn) SessionID() string { return "" }

var (
	_ mcp.Connection = (*stdioConn)(nil)
	_ mcp.Transport  = (*stdioTransport)(nil)
)
