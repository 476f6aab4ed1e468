package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const initBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawRequest describes one HTTP request to the server.
type rawRequest struct {
	method, path, body string
	header             map[string]string
	session            bool // send the test's session ID
}

func (rr rawRequest) do(t testing.TB, ctx context.Context, base, session string) *http.Response {
	t.Helper()
	if rr.method == "" {
		rr.method = http.MethodPost
	}
	if rr.path == "" {
		rr.path = transport.MCPPath
	}
	req, err := http.NewRequestWithContext(ctx, rr.method, base+rr.path, strings.NewReader(rr.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if rr.session {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for k, v := range rr.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", rr.method, rr.path, err)
	}
	return resp
}

// rawSession initializes a session with raw requests and returns its ID.
func rawSession(t testing.TB, base string) string {
	t.Helper()
	ctx := testCtx(t)
	resp := rawRequest{body: initBody}.do(t, ctx, base, "")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	resp = rawRequest{body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session: true}.do(t, ctx, base, id)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: status %d", resp.StatusCode)
	}
	return id
}

func TestHTTPRawStatuses(t *testing.T) {
	t.Parallel()
	config := stepsConfig + "    # end\n"
	_, base, _ := serve(t, nil, config, nil, transport.HTTPOptions{MaxBody: 1024,
		AllowedHosts: []string{"mcp.example.com"}, AllowedOrigins: []string{"https://app.example.com"}})
	session := rawSession(t, base)
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` +
		strings.Repeat("x", 2048) + `"}}}`
	for _, tt := range []struct {
		name string
		req  rawRequest
		want int
	}{
		{"list on the session", rawRequest{body: list, session: true}, 200},
		{"malformed JSON", rawRequest{body: `{"jsonrpc":`, session: true}, 400},
		{"wrong content type", rawRequest{body: list, session: true, header: map[string]string{"Content-Type": "text/plain"}}, 415},
		{"missing Accept", rawRequest{body: list, session: true, header: map[string]string{"Accept": ""}}, 400},
		{"oversized body", rawRequest{body: big, session: true}, 413},
		{"unknown session", rawRequest{body: list, header: map[string]string{"Mcp-Session-Id": "nope"}}, 404},
		// A sessionless GET is a 2026-07-28 request, which has no GET stream.
		{"GET without session", rawRequest{method: "GET"}, 405},
		{"foreign Host", rawRequest{body: initBody, header: map[string]string{"Host": "evil.example.com"}}, 403},
		{"foreign Origin", rawRequest{body: initBody, header: map[string]string{"Origin": "http://evil.example.com"}}, 403},
		{"foreign Origin on a session", rawRequest{body: list, session: true, header: map[string]string{"Origin": "https://evil.example.com"}}, 403},
		{"loopback Origin", rawRequest{body: initBody, header: map[string]string{"Origin": "http://localhost:1234"}}, 200},
		{"configured Host", rawRequest{body: initBody, header: map[string]string{"Host": "mcp.example.com:443"}}, 200},
		{"configured Origin", rawRequest{body: initBody, header: map[string]string{"Origin": "https://app.example.com"}}, 200},
		{"older protocol header on a 2025-11-25 session", rawRequest{body: list, session: true,
			header: map[string]string{"Mcp-Protocol-Version": "2025-03-26"}}, 200},
		{"unsupported protocol header", rawRequest{body: list, session: true,
			header: map[string]string{"Mcp-Protocol-Version": "1999-01-01"}}, 400},
		{"no redirect from /mcp/", rawRequest{path: "/mcp/", body: list}, 404},
		{"healthz", rawRequest{method: "GET", path: transport.HealthzPath}, 200},
		{"healthz from any host", rawRequest{method: "GET", path: transport.HealthzPath, header: map[string]string{"Host": "10.0.0.7:8080"}}, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := tt.req.do(t, testCtx(t), base, session)
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
		})
	}
}

func TestHTTPRawDeleteSession(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	session := rawSession(t, base)
	ctx := testCtx(t)
	var got []int
	for _, rr := range []rawRequest{
		{method: "DELETE", session: true},
		{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, session: true},
		{method: "DELETE", session: true},
	} {
		resp := rr.do(t, ctx, base, session)
		resp.Body.Close()
		got = append(got, resp.StatusCode)
	}
	if diff := cmp.Diff([]int{204, 404, 404}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

// sseMessages reads the JSON-RPC messages of an SSE body, or the one
// message of a plain JSON reply (a call that sent nothing else).
func sseMessages(t testing.TB, body io.Reader) []map[string]any {
	t.Helper()
	all, err := io.ReadAll(body)
	if err != nil {
		t.Fatal(err)
	}
	if trimmed := bytes.TrimSpace(all); len(trimmed) > 0 && trimmed[0] == '{' {
		var m map[string]any
		if err := json.Unmarshal(trimmed, &m); err != nil {
			t.Fatalf("reply %q: %v", trimmed, err)
		}
		return []map[string]any{m}
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(all))
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || strings.TrimSpace(data) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("event data %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

func TestHTTPRawProgressPrecedesResult(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	session := rawSession(t, base)
	resp := rawRequest{session: true, body: `{"jsonrpc":"2.0","id":7,"method":"tools/call",` +
		`"params":{"name":"progress","arguments":{},"_meta":{"progressToken":7}}}`}.do(t, testCtx(t), base, session)
	defer resp.Body.Close()
	var order []string
	for _, m := range sseMessages(t, resp.Body) {
		if method, ok := m["method"].(string); ok {
			p := m["params"].(map[string]any)
			order = append(order, method+" "+jsonString(p["progressToken"])+" "+jsonString(p["progress"]))
		} else {
			order = append(order, "result "+jsonString(m["id"]))
		}
	}
	want := []string{"notifications/progress 7 10", "notifications/progress 7 10", "notifications/progress 7 100", "result 7"}
	if diff := cmp.Diff(want, order); diff != "" {
		t.Errorf("stream (-want +got):\n%s", diff)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestHTTPClientDisconnectCancelsBackend(t *testing.T) {
	t.Parallel()
	for _, window := range []time.Duration{-1, 50 * time.Millisecond} {
		p := newProbe(true)
		_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{ResumeWindow: window})
		session := rawSession(t, base)
		ctx, cancel := context.WithCancel(testCtx(t))
		done := make(chan struct{})
		go func() {
			defer close(done)
			req, _ := http.NewRequestWithContext(ctx, "POST", base+transport.MCPPath,
				strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Session-Id", session)
			if resp, err := testClient.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		<-p.started
		cancel() // the client goes away without a cancellation notice
		<-done
		waitFor(t, "the backend call to be canceled", func() bool { return p.canceled.Load() == 1 })
	}
}

// TestHTTPMaxSessions: with every session in use (each sent a request
// after its handshake), a new one is refused 503 with Retry-After: only
// sessions never used make room (TestSessionFloodDoesNotLockOut).
func TestHTTPMaxSessions(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{MaxSessions: 2})
	for range 2 {
		id := rawSession(t, base)
		resp := rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, session: true}.do(t, testCtx(t), base, id)
		resp.Body.Close()
	}
	resp := rawRequest{body: initBody}.do(t, testCtx(t), base, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("third session: status %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}

func TestHTTPShutdownLetsCallsFinishThenCancels(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		release  bool
		canceled int64
	}{
		{name: "finishes in time", release: true},
		{name: "canceled at the deadline", canceled: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newProbe(true)
			h, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{})
			cs := connect(t, base, nil)
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(testCtx(t), &runtimeCall)
				errc <- err
			}()
			<-p.started
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			shut := make(chan error, 1)
			go func() { shut <- h.Shutdown(ctx) }()
			waitFor(t, "new sessions to be refused", func() bool {
				resp := rawRequest{body: initBody}.do(t, testCtx(t), base, "")
				resp.Body.Close()
				return resp.StatusCode == http.StatusServiceUnavailable
			})
			if tt.release {
				close(p.release)
			}
			err := <-shut
			if (err == nil) != tt.release || p.canceled.Load() != tt.canceled {
				t.Errorf("Shutdown: %v, %d calls canceled; want %d", err, p.canceled.Load(), tt.canceled)
			}
		})
	}
}

func TestServeHTTPStopsOnContext(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	srv, _ := build(t, handlers.NewRegistry(p.kind()), blockConfig, nil)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- transport.ListenAndServe(ctx, srv, "127.0.0.1:0", transport.HTTPOptions{ShutdownTimeout: 100 * time.Millisecond,
			OnListen: func(a net.Addr) { addrc <- a }})
	}()
	base := "http://" + (<-addrc).String()
	cs := connect(t, base, nil)
	callErr := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(testCtx(t), &runtimeCall)
		callErr <- err
	}()
	<-p.started
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("ServeHTTP returned %v after a graceful shutdown", err)
	}
	if p.canceled.Load() != 1 {
		t.Errorf("the call running past the shutdown deadline was not canceled")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), time.Second); err == nil {
		t.Errorf("still accepting connections after shutdown")
	}
}

var runtimeCall = mcp.CallToolParams{Name: "block"}

func TestHTTPClientResumesDroppedStream(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{ResumeWindow: 5 * time.Second})
	session := rawSession(t, base)
	ctx, cancel := context.WithCancel(testCtx(t))
	resp := rawRequest{session: true, body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"block"}}`}.do(t, ctx, base, session)
	lastID := ""
	sc := bufio.NewScanner(resp.Body)
	for lastID == "" && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			lastID = v
		}
	}
	<-p.started
	cancel() // the stream drops while the call runs
	resp.Body.Close()
	// The call keeps running while the client is away, within the window.
	time.Sleep(100 * time.Millisecond)
	if n := p.canceled.Load(); n != 0 {
		t.Fatalf("the call was canceled within the resume window")
	}
	got := make(chan *http.Response, 1)
	go func() {
		got <- rawRequest{method: "GET", session: true, header: map[string]string{"Last-Event-ID": lastID}}.do(t, testCtx(t), base, session)
	}()
	close(p.release) // the GET's headers come with the first event
	get := <-got
	defer get.Body.Close()
	msgs := sseMessages(t, get.Body)
	if get.StatusCode != http.StatusOK || len(msgs) != 1 || jsonString(msgs[0]["id"]) != "3" || p.canceled.Load() != 0 {
		t.Errorf("resumed stream: status %d, %v, %d canceled; want the result of call 3 and no cancellation",
			get.StatusCode, msgs, p.canceled.Load())
	}
}

func TestHTTPConfig(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, http string
		serves     bool
		addr       string
		opts       transport.HTTPOptions
	}{
		{name: "no section", addr: "127.0.0.1:8080", opts: transport.HTTPOptions{SessionTimeout: 30 * time.Minute,
			MaxSessions: 1000, MaxBody: 4 << 20, ShutdownTimeout: 10 * time.Second, ResumeWindow: 5 * time.Second,
			MaxSessionsPerClient: 100, MaxCalls: 512, MaxCallsPerBackend: 128, MaxConnections: 2048,
			ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second,
			IdleTimeout: 2 * time.Minute, MaxConnectionsPerClient: 64, BackendQueue: 256, BackendQueueWait: 2 * time.Second}},
		{name: "everything", serves: true, http: `
  http:
    addr: 0.0.0.0:9000
    allowed_hosts: [mcp.example.com]
    allowed_origins: ["https://app.example.com"]
    stateless: true
    session_timeout: 1m
    max_sessions: 3
    max_body: 1KiB
    shutdown_timeout: 2s
    max_sessions_per_client: -1
    max_calls: 7
    max_calls_per_backend: 3
    backend_queue: 9
    backend_queue_wait: 500ms
    max_connections: 50
    max_connections_per_client: 5
    trusted_proxies: [10.0.0.0/8]
    read_header_timeout: 1s
    read_timeout: 2s
    write_timeout: 3s
    idle_timeout: 4s`, addr: "0.0.0.0:9000", opts: transport.HTTPOptions{AllowedHosts: []string{"mcp.example.com"},
			AllowedOrigins: []string{"https://app.example.com"}, Stateless: true, SessionTimeout: time.Minute,
			MaxSessions: 3, MaxBody: 1024, ShutdownTimeout: 2 * time.Second, ResumeWindow: 5 * time.Second,
			MaxSessionsPerClient: -1, MaxCalls: 7, MaxCallsPerBackend: 3, MaxConnections: 50,
			ReadHeaderTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 3 * time.Second,
			IdleTimeout: 4 * time.Second, MaxConnectionsPerClient: 5, BackendQueue: 9, BackendQueueWait: 500 * time.Millisecond,
			TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := build(t, nil, "version: 1\nserver:\n  name: x"+tt.http+"\n", nil)
			addr, opts := transport.HTTPConfig(srv)
			if addr != tt.addr || srv.ServesHTTP() != tt.serves {
				t.Errorf("addr %q, serves HTTP %v; want %q, %v", addr, srv.ServesHTTP(), tt.addr, tt.serves)
			}
			if diff := cmp.Diff(tt.opts, opts, cmpopts.IgnoreFields(transport.HTTPOptions{}, "OnListen"),
				cmp.Comparer(func(a, b netip.Prefix) bool { return a == b })); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPIdleSessionTimesOut(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{SessionTimeout: 50 * time.Millisecond})
	session := rawSession(t, base)
	time.Sleep(500 * time.Millisecond) // every request restarts the idle timer: wait without any
	resp := rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, session: true}.do(t, testCtx(t), base, session)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("request on an idle-closed session: status %d, want 404", resp.StatusCode)
	}
}

func TestHTTPLegacyEndpointChecksHost(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	resp := rawRequest{method: "GET", path: transport.SSEPath, header: map[string]string{"Host": "evil.example.com"}}.do(t, testCtx(t), base, "")
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want 403", resp.StatusCode)
	}
}
