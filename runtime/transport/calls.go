package transport

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// callHeader carries, inside the server, the token that ties a request
// handler to the HTTP request that brought it. Clients cannot set it: the
// handler overwrites or deletes it.
const callHeader = "Mcpgen-Internal-Call"

// callTracker follows the requests being handled: it counts them for a
// graceful shutdown, cancels them all at the shutdown deadline, and cancels
// those whose client went away without resuming the stream in time.
type callTracker struct {
	window    time.Duration
	stateless bool // no stream can be resumed: a call ends with its request

	mu      sync.Mutex
	n       int
	idle    chan struct{} // closed when n drops to 0
	drained bool
	seq     uint64
	cancels map[uint64]context.CancelFunc
	posts   map[string]*carried // by token
	streams map[string]*carried // by SSE stream ID
}

// carried is what one POST brought: its calls, and the HTTP requests
// currently carrying its stream (the POST, then resumptions).
type carried struct {
	token, stream string
	calls         map[uint64]context.CancelFunc
	carriers      int
	timer         *time.Timer
}

func newCallTracker(window time.Duration) *callTracker {
	return &callTracker{window: window, cancels: map[uint64]context.CancelFunc{},
		posts: map[string]*carried{}, streams: map[string]*carried{}}
}

// middleware registers every request handled by the go-sdk server.
func (t *callTracker) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if strings.HasPrefix(method, "notifications/") || method == "initialize" || method == "ping" {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var token string
		if extra := req.GetExtra(); extra != nil && extra.Header != nil {
			token = extra.Header.Get(callHeader)
		}
		id, ok := t.enter(cancel, token)
		if !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "server is shutting down"}
		}
		defer t.leave(id, token)
		return next(ctx, method, req)
	}
}

func (t *callTracker) enter(cancel context.CancelFunc, token string) (uint64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.drained {
		return 0, false
	}
	t.seq++
	t.cancels[t.seq] = cancel
	if t.n == 0 {
		t.idle = make(chan struct{})
	}
	t.n++
	if c := t.posts[token]; c != nil {
		c.calls[t.seq] = cancel
	}
	return t.seq, true
}

func (t *callTracker) leave(id uint64, token string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.cancels, id)
	if t.n--; t.n == 0 {
		close(t.idle)
	}
	if c := t.posts[token]; c != nil {
		delete(c.calls, id)
		t.forgetIfDone(c)
	}
}

func (t *callTracker) forgetIfDone(c *carried) {
	if len(c.calls) > 0 || c.carriers > 0 {
		return
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	delete(t.posts, c.token)
	if c.stream != "" {
		delete(t.streams, c.stream)
	}
}

// track ties the calls of each POST to it, and resumptions (GET with
// Last-Event-ID) to the POST whose stream they resume.
func (t *callTracker) track(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost:
			c := t.open()
			r.Header.Set(callHeader, c.token)
			// The go-sdk runs the POST's calls on its goroutine, so
			// ServeHTTP returns when they end, not when the client leaves:
			// that is when the POST stops carrying its stream.
			var once sync.Once
			end := func() { once.Do(func() { t.release(c, r.Context().Err() != nil) }) }
			leave := end
			if t.stateless || modern(r) { // no stream to resume: the calls end with the request
				leave = func() { t.abandon(c); end() }
			}
			stop := context.AfterFunc(r.Context(), leave)
			next.ServeHTTP(&streamSniffer{ResponseWriter: w, t: t, c: c}, r)
			stop()
			end()
		case r.Method == http.MethodGet && header(r.Header, lastEventIDHeader) != "":
			c := t.resume(header(r.Header, lastEventIDHeader))
			next.ServeHTTP(w, r)
			if c != nil {
				t.release(c, r.Context().Err() != nil)
			}
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (t *callTracker) open() *carried {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	c := &carried{token: strconv.FormatUint(t.seq, 36), calls: map[uint64]context.CancelFunc{}, carriers: 1}
	t.posts[c.token] = c
	return c
}

func (t *callTracker) resume(lastEventID string) *carried {
	i := strings.LastIndexByte(lastEventID, '_')
	if i < 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.streams[lastEventID[:i]]
	if c == nil {
		return nil
	}
	c.carriers++
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	return c
}

// release ends one carrier of c. When the client went away and nothing
// carries the stream any more, its calls are canceled: after the resume
// window if the stream can be resumed, at once otherwise.
func (t *callTracker) release(c *carried, gone bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.carriers--
	if gone && c.carriers == 0 && len(c.calls) > 0 {
		if c.stream == "" || t.window < 0 {
			cancelAll(c.calls)
		} else {
			c.timer = time.AfterFunc(t.window, func() { t.expire(c) })
		}
	}
	t.forgetIfDone(c)
}

// abandon cancels the calls of a POST whose client went away.
func (t *callTracker) abandon(c *carried) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cancelAll(c.calls)
}

func (t *callTracker) expire(c *carried) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c.carriers == 0 {
		cancelAll(c.calls)
	}
}

func (t *callTracker) bind(c *carried, stream string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c.stream = stream
	t.streams[stream] = c
}

func cancelAll(m map[uint64]context.CancelFunc) {
	for _, cancel := range m {
		cancel()
	}
}

// drain refuses new requests from now on.
func (t *callTracker) drain() {
	t.mu.Lock()
	t.drained = true
	t.mu.Unlock()
}

func (t *callTracker) draining() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.drained
}

// wait waits until no request is being handled, or ctx is done.
func (t *callTracker) wait(ctx context.Context) error {
	t.mu.Lock()
	if t.n == 0 {
		t.mu.Unlock()
		return nil
	}
	idle := t.idle
	t.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cancelAll cancels every request being handled.
func (t *callTracker) cancelAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	cancelAll(t.cancels)
}

// streamSniffer learns the SSE stream ID of a POST's response from the
// first event ID written, so that a resumption can be tied to it.
type streamSniffer struct {
	http.ResponseWriter
	t     *callTracker
	c     *carried
	found bool
}

func (s *streamSniffer) Write(p []byte) (int, error) {
	if !s.found {
		if id, ok := eventID(p); ok {
			s.found = true
			if i := strings.LastIndexByte(id, '_'); i > 0 {
				s.t.bind(s.c, id[:i])
			}
		}
	}
	return s.ResponseWriter.Write(p)
}

// Flush flushes the underlying writer: SSE events must leave at once.
func (s *streamSniffer) Flush() { _ = http.NewResponseController(s.ResponseWriter).Flush() }

// Unwrap gives http.ResponseController the underlying writer.
func (s *streamSniffer) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// eventID finds an SSE "id:" field in p.
func eventID(p []byte) (string, bool) {
	for line := range bytes.Lines(p) {
		if v, ok := bytes.CutPrefix(line, []byte("id:")); ok {
			return string(bytes.TrimSpace(v)), true
		}
	}
	return "", false
}

var (
	_ http.Flusher        = (*streamSniffer)(nil)
	_ mcp.Middleware      = (*callTracker)(nil).middleware
	_ http.ResponseWriter = (*streamSniffer)(nil)
)
