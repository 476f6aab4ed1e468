package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainTimeout bounds how long stdio serving waits, after the client closed
// stdin, for the answers to requests it had already sent.
const DrainTimeout = 10 * time.Second

// ServeStdio serves s over in and out until the client closes in or ctx is
// canceled. Nothing but protocol messages is written to out. When in ends,
// requests already read are answered (up to DrainTimeout) before it returns,
// so a client may write its requests and close its end.
func ServeStdio(ctx context.Context, s *runtime.Server, in io.Reader, out io.Writer) error {
	p := &pending{cond: sync.NewCond(new(sync.Mutex))}
	t := &mcp.IOTransport{
		Reader: io.NopCloser(&drainReader{r: bufio.NewReader(in), p: p, ctx: ctx}),
		Writer: nopWriteCloser{&countWriter{w: out, p: p}},
	}
	srv := s.MCP()
	watchCtx, stop := context.WithCancel(ctx)
	defer stop()
	go s.WatchResources(watchCtx, srv)
	err := srv.Run(ctx, t)
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

// pending counts requests read and responses written.
type pending struct {
	cond      *sync.Cond
	requests  int
	responses int
}

func (p *pending) add(req, resp int) {
	p.cond.L.Lock()
	p.requests += req
	p.responses += resp
	p.cond.L.Unlock()
	p.cond.Broadcast()
}

// wait blocks until every request read has been answered, or ctx ends, or
// DrainTimeout passes.
func (p *pending) wait(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, DrainTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, p.cond.Broadcast)
	defer stop()
	p.cond.L.Lock()
	defer p.cond.L.Unlock()
	for p.responses < p.requests && ctx.Err() == nil {
		p.cond.Wait()
	}
}

// kind tells requests (method and id) from responses (id, no method).
func kind(line []byte) (req, resp int) {
	hasID, hasMethod := topLevelKeys(line)
	switch {
	case !hasID:
		return 0, 0
	case hasMethod:
		return 1, 0
	}
	return 0, 1
}

// topLevelKeys reports whether a JSON object has a non-null "id" and a
// "method" among its top-level keys. It scans the bytes without decoding
// them: it runs on every message in both directions.
func topLevelKeys(b []byte) (hasID, hasMethod bool) {
	depth, inString, escaped := 0, false, false
	keyStart, expectKey := -1, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyStart >= 0 {
					key := string(b[keyStart:i])
					keyStart = -1
					switch key {
					case "method":
						hasMethod = true
					case "id":
						hasID = !valueIsNull(b[i+1:])
					}
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			if depth == 1 && expectKey {
				keyStart, expectKey = i+1, false
			}
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		}
	}
	return hasID, hasMethod
}

// valueIsNull reports whether the JSON after a key (": null") is null.
func valueIsNull(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	b = bytes.TrimPrefix(b, []byte(":"))
	b = bytes.TrimLeft(b, " \t\r\n")
	return bytes.HasPrefix(b, []byte("null"))
}

// drainReader reads whole lines; at the end of input it waits for pending
// requests to be answered before it reports EOF.
type drainReader struct {
	r   *bufio.Reader
	p   *pending
	ctx context.Context
	buf []byte
}

func (d *drainReader) Read(b []byte) (int, error) {
	if len(d.buf) == 0 {
		line, err := d.r.ReadBytes('\n')
		if len(line) > 0 {
			if req, _ := kind(line); req > 0 {
				d.p.add(req, 0)
			}
			d.buf = line
		}
		if err != nil && len(line) == 0 {
			if errors.Is(err, io.EOF) {
				d.p.wait(d.ctx)
			}
			return 0, err
		}
	}
	n := copy(b, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// countWriter counts the responses written.
type countWriter struct {
	w io.Writer
	p *pending
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	for _, line := range bytes.Split(b, []byte("\n")) {
		if _, resp := kind(line); resp > 0 {
			c.p.add(0, resp)
		}
	}
	return n, err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
