package transport_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// listen serves config with ServeHTTP, the listener mcpgen serve uses, and
// returns its address.
func listen(t *testing.T, reg *handlers.Registry, config string, opts transport.HTTPOptions) string {
	t.Helper()
	srv, _ := build(t, reg, config, nil)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	opts.ShutdownTimeout = 100 * time.Millisecond
	opts.OnListen = func(a net.Addr) { addrc <- a }
	go func() { errc <- transport.ListenAndServe(ctx, srv, "127.0.0.1:0", opts) }()
	t.Cleanup(func() {
		cancel()
		<-errc
	})
	select {
	case a := <-addrc:
		return a.String()
	case err := <-errc:
		t.Fatalf("ServeHTTP: %v", err)
	}
	return ""
}

// closedByServer reads conn until the server closes it. It fails the test
// if that takes longer than a minute: a hang, not a slow machine.
func closedByServer(t *testing.T, conn net.Conn, what string) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Errorf("%s: the server kept the connection open", what)
	}
}

// TestServeHTTPSlowClients: a client that sends its headers or its body too
// slowly, or keeps an idle connection, is disconnected.
func TestServeHTTPSlowClients(t *testing.T) {
	t.Parallel()
	addr := listen(t, nil, stepsConfig, transport.HTTPOptions{ReadHeaderTimeout: 100 * time.Millisecond,
		ReadTimeout: 100 * time.Millisecond, IdleTimeout: 100 * time.Millisecond})
	for _, tt := range []struct{ name, send string }{
		{"headers never end", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "},
		{"body never ends", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"},
		{"idle after a request", "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tt.send); err != nil {
				t.Fatal(err)
			}
			closedByServer(t, conn, tt.name)
		})
	}
}

// TestServeHTTPWriteTimeout: a client that stops reading a large answer is
// cut off rather than holding a goroutine and a buffer forever.
func TestServeHTTPWriteTimeout(t *testing.T) {
	t.Parallel()
	config := `
version: 1
tools:
  - name: big
    description: Answers 64 MB.
    content: [` + strings.Repeat(`{text: '{{ repeat 4000000 "x" }}'}, `, 16) + `]
`
	addr := listen(t, nil, config, transport.HTTPOptions{Stateless: true, WriteTimeout: 50 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}`
	_, err = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	if err != nil {
		t.Fatal(err)
	}
	// Wait for the answer to start (rendering 64 MB may take a while on a
	// loaded machine), then stop reading: the socket buffers fill and the
	// server's next write waits past its timeout. (A pause, not a timing
	// assertion: the longer it is, the surer the outcome.)
	first := make([]byte, 1)
	if _, err := io.ReadFull(conn, first); err != nil {
		t.Fatalf("no answer: %v", err)
	}
	time.Sleep(time.Second)
	n, _ := io.Copy(io.Discard, conn)
	if n+1 >= 64e6 {
		t.Errorf("read %d bytes: the whole answer came through a client that did not read", n)
	}
}

// TestServeHTTPMaxConnections: at max_connections, the connection idle
// the longest is closed to make room for a new one; when every open
// connection is busy (a request on its way), a new one is refused at once
// rather than left waiting.
func TestServeHTTPMaxConnections(t *testing.T) {
	t.Parallel()
	addr := listen(t, nil, stepsConfig, transport.HTTPOptions{MaxConnections: 2})
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	first, second := dial(), dial()
	health(t, first) // both served, then idle
	health(t, second)
	third := dial()
	health(t, third) // served: the longest idle made room
	_ = first.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := first.Read(make([]byte, 1)); err == nil {
		t.Error("the connection idle the longest was not closed")
	}
	// second and third now busy: a request whose body is on its way.
	// (A request with only part of its headers still counts as idle.)
	for _, c := range []net.Conn{second, third} {
		if _, err := io.WriteString(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // the server reads their first bytes
	fourth := dial()
	_ = fourth.SetReadDeadline(time.Now().Add(5 * time.Second))
	start := time.Now()
	if _, err := fourth.Read(make([]byte, 1)); err == nil || time.Since(start) > 3*time.Second {
		t.Errorf("a connection beyond two busy ones: %v after %v, want closed at once", err, time.Since(start))
	}
}

func health(t *testing.T, c net.Conn) {
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Error(err)
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Error(err)
		return
	}
	resp.Body.Close()
}

// TestHTTPSessionsPerClient: one address cannot open more sessions than
// its share; closing one frees a place; another address is not affected.
func TestHTTPSessionsPerClient(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{MaxSessionsPerClient: 2})
	first := rawSession(t, base)
	rawSession(t, base)
	resp := rawRequest{body: initBody}.do(t, testCtx(t), base, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("third session from one address: status %d; want 429 with Retry-After", resp.StatusCode)
	}
	other := &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{
		LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext}}
	req, _ := http.NewRequest("POST", base+transport.MCPPath, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := other.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("a session from another address: %v, %v", err, resp)
	} else {
		resp.Body.Close()
	}
	resp = rawRequest{method: "DELETE", session: true}.do(t, testCtx(t), base, first)
	resp.Body.Close()
	resp = rawRequest{body: initBody}.do(t, testCtx(t), base, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a session after closing one: status %d, want 200", resp.StatusCode)
	}
}

// flood is a backend that sends large progress notifications until its
// call is canceled.
type flood struct{ canceled chan struct{} }

func (f *flood) kind() handlers.Kind {
	return handlers.Kind{Name: "flood", Doc: "test backend", NewConfig: func() handlers.Config { return &floodConfig{f} }}
}

type floodConfig struct{ f *flood }

func (c *floodConfig) Build(handlers.BuildEnv) handlers.Handler { return c.f }

func (f *flood) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	chunk := strings.Repeat("x", 64<<10)
	for i := 0; ctx.Err() == nil; i++ {
		c.Notify.Progress(ctx, float64(i), 0, chunk)
	}
	close(f.canceled)
	return nil, ctx.Err()
}

// TestServeHTTPWriteTimeoutEndsAStream: a client that stops reading the
// event stream of a call (progress asked for) has the call canceled once
// a write waits past the write timeout (at once: no resume window).
func TestServeHTTPWriteTimeoutEndsAStream(t *testing.T) {
	t.Parallel()
	f := &flood{canceled: make(chan struct{})}
	addr := listen(t, handlers.NewRegistry(f.kind()), `
version: 1
tools:
  - name: flood
    description: Sends progress until canceled.
    handler: {kind: flood}
`, transport.HTTPOptions{WriteTimeout: 50 * time.Millisecond, ResumeWindow: -1})
	session := rawSession(t, "http://"+addr)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"flood","_meta":{"progressToken":"p"}}}`
	_, err = io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nMcp-Session-Id: "+session+"\r\nMcp-Protocol-Version: 2025-11-25\r\n"+
		"Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(conn, make([]byte, 1)); err != nil {
		t.Fatalf("no answer: %v", err)
	}
	// Reading stops here: the socket buffers fill and a write waits.
	select {
	case <-f.canceled:
	case <-time.After(20 * time.Second):
		t.Fatal("the call still runs 20s after its client stopped reading")
	}
}
