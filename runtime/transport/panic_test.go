package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// panicConfig has a tool at each layer a request's handling passes:
// a kind whose Call panics, a tool the test's middleware panics on, a
// template whose function panics, and a tool that works.
const panicConfig = `
version: 1
tools:
  - name: kind_boom
    description: Its backend panics.
    args: [{name: text}]
    handler: {kind: boom}
  - name: middleware_boom
    description: The middleware panics on it.
    args: [{name: text}]
    content: [{text: "never"}]
  - name: template_boom
    description: Its template's function panics.
    args: [{name: text}]
    content: [{text: '{{ regexFind "(" .args.text }}'}]
  - name: echo
    description: Echoes.
    args: [{name: text, required: true}]
    content: [{text: "echo {{ .args.text }}"}]
`

// boomKind is a backend kind whose every call panics.
type boomKind struct{}

// boomConfig is boomKind's (empty) config.
type boomConfig struct{}

func (*boomConfig) Build(handlers.BuildEnv) handlers.Handler { return boomKind{} }

func (boomKind) Call(context.Context, *handlers.Call) (*handlers.Result, error) {
	panic("boom in a kind's Call")
}

// panicking is receiving middleware that panics on a call of
// middleware_boom, standing for a bug in any of mcpgen's middleware.
func panicking(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil && r.Params.Name == "middleware_boom" {
			var m map[string]int
			m["x"]++ // a nil map write: a real runtime panic
		}
		return next(ctx, method, req)
	}
}

// liveServer builds panicConfig as `mcpgen serve` runs a config: on a
// Live (the crash of a second initialize was there), with metrics.
func liveServer(t *testing.T) (*runtime.Server, *observe.Metrics) {
	t.Helper()
	srv, m := buildBoom(t, panicConfig)
	live := runtime.NewLive(srv)
	t.Cleanup(func() { live.Close() })
	srv.MCP().AddReceivingMiddleware(panicking)
	return srv, m
}

// buildBoom builds config, whose kind boom panics, with metrics.
func buildBoom(t *testing.T, config string) (*runtime.Server, *observe.Metrics) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	writeFile(t, path, config)
	reg := handlers.NewRegistry(handlers.Kind{Name: "boom", Doc: "panics",
		NewConfig: func() handlers.Config { return &boomConfig{} }})
	m := observe.NewMetrics()
	srv, ds := runtime.Compile([]string{path}, load.Options{},
		runtime.BuildOptions{Registry: reg, Observer: &observe.Observer{Metrics: m}})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, m
}

// panics returns mcpgen_panics_total for method, or for all methods when
// method is "".
func panics(t *testing.T, m *observe.Metrics, method string) float64 {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	n := 0.0
	for _, f := range fams {
		if f.GetName() != "mcpgen_panics_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "method" && (method == "" || l.GetValue() == method) {
					n += s.GetCounter().GetValue()
				}
			}
		}
	}
	return n
}

// TestStdioSecondInitialize sends initialize twice on one stdio
// connection: the second is refused as an invalid request, and the
// session goes on. It used to end the process (a nil result dereferenced).
func TestStdioSecondInitialize(t *testing.T) {
	srv, _ := liveServer(t)
	c := startStdio(t, srv)
	c.send(initBody)
	if l := c.next(); !strings.Contains(l, `"result"`) {
		t.Fatalf("first initialize: %s", l)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(strings.Replace(initBody, `"id":0`, `"id":2`, 1))
	wantError(t, c.next(), "2", jsonrpc.CodeInvalidRequest)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}`)
	if l := c.next(); !strings.Contains(l, `"id":3,"result"`) || !strings.Contains(l, "echo still here") {
		t.Fatalf("a call after the second initialize: %s", l)
	}
	c.end()
}

// TestHTTPSecondInitialize sends initialize again within a stateful
// session: refused as an invalid request, and the session goes on.
func TestHTTPSecondInitialize(t *testing.T) {
	srv, _ := liveServer(t)
	base := serveLive(t, srv, transport.HTTPOptions{})
	session := rawSession(t, base)
	ctx := testCtx(t)
	resp := rawRequest{body: strings.Replace(initBody, `"id":0`, `"id":2`, 1), session: true}.do(t, ctx, base, session)
	if id, code := errorOf(t, resp); id != "2" || code != jsonrpc.CodeInvalidRequest {
		t.Errorf("second initialize: id %s code %d, want id 2 code %d", id, code, jsonrpc.CodeInvalidRequest)
	}
	resp = rawRequest{body: `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, session: true}.do(t, ctx, base, session)
	if ps := payloads(t, resp); len(ps) != 1 || !strings.Contains(string(ps[0]), `"echo"`) {
		t.Errorf("tools/list after the second initialize: status %d, %q", resp.StatusCode, ps)
	}
}

// TestSSESecondInitialize does the same on the legacy HTTP+SSE transport.
func TestSSESecondInitialize(t *testing.T) {
	srv, _ := liveServer(t)
	base := serveLive(t, srv, transport.HTTPOptions{})
	s := openSSE(t, base)
	s.post(t, initBody)
	if m := s.next(t); !strings.Contains(m, `"result"`) {
		t.Fatalf("first initialize: %s", m)
	}
	s.post(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	s.post(t, strings.Replace(initBody, `"id":0`, `"id":2`, 1))
	wantError(t, s.next(t), "2", jsonrpc.CodeInvalidRequest)
	s.post(t, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if m := s.next(t); m != `{"jsonrpc":"2.0","id":3,"result":{}}` {
		t.Fatalf("ping after the second initialize: %s", m)
	}
}

// TestPanicAtEachLayer makes a request panic at each layer of its
// handling, on every transport: each is answered -32603, logged and
// counted, and the same session then answers a call that works.
// caller calls a tool and returns its text, whether it is a tool error,
// and a protocol error's code (0 for none).
type caller func(t *testing.T, tool string) (text string, isError bool, code int64)

func TestPanicAtEachLayer(t *testing.T) {
	for _, tr := range []struct {
		name string
		open func(t *testing.T, srv *runtime.Server) caller
	}{
		{"stdio", openStdioCaller},
		{"http-stateful", func(t *testing.T, srv *runtime.Server) caller {
			return clientCaller(t, connect(t, serveLive(t, srv, transport.HTTPOptions{}), nil))
		}},
		{"http-stateless", func(t *testing.T, srv *runtime.Server) caller {
			return clientCaller(t, connect(t, serveLive(t, srv, transport.HTTPOptions{Stateless: true}), nil))
		}},
		{"sse", func(t *testing.T, srv *runtime.Server) caller {
			base := serveLive(t, srv, transport.HTTPOptions{})
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "old", Version: "1"}, nil).Connect(testCtx(t),
				&mcp.SSEClientTransport{Endpoint: base + transport.SSEPath}, &mcp.ClientSessionOptions{ProtocolVersion: "2024-11-05"})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cs.Close() })
			return clientCaller(t, cs)
		}},
	} {
		t.Run(tr.name, func(t *testing.T) {
			srv, m := liveServer(t)
			call := tr.open(t, srv)
			for _, tool := range []string{"kind_boom", "middleware_boom"} {
				if text, _, code := call(t, tool); code != jsonrpc.CodeInternalError {
					t.Errorf("%s: code %d (%q), want %d", tool, code, text, jsonrpc.CodeInternalError)
				}
			}
			// text/template recovers a panic in a function itself: the
			// call is a tool error naming the template.
			if text, isError, code := call(t, "template_boom"); code != 0 || !isError || !strings.Contains(text, "regexFind") {
				t.Errorf("template_boom: %q isError %v code %d, want a tool error about regexFind", text, isError, code)
			}
			if text, isError, code := call(t, "echo"); code != 0 || isError || text != "echo after" {
				t.Errorf("echo after the panics: %q isError %v code %d", text, isError, code)
			}
			if n := panics(t, m, "tools/call"); n != 2 {
				t.Errorf("mcpgen_panics_total{method=tools/call} = %v, want 2", n)
			}
		})
	}
}

// TestTaskWorkPanic: a panic in a task's work, on a goroutine of its own,
// fails the task with an internal error instead of ending the process.
func TestTaskWorkPanicFailsTheTask(t *testing.T) {
	srv, m := buildBoom(t, `
version: 1
tools:
  - name: slow_boom
    description: Runs as a task; its backend panics.
    task: optional
    handler: {kind: boom}
`)
	c := startStdio(t, srv)
	c.send(initBody)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_boom","task":{"ttl":60000}}}`)
	var created struct {
		Result struct {
			Task struct{ TaskID string }
		}
	}
	if l := answer(t, c); json.Unmarshal([]byte(l), &created) != nil || created.Result.Task.TaskID == "" {
		t.Fatalf("tools/call as a task: %s", l)
	}
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tasks/result","params":{"taskId":%q}}`, created.Result.Task.TaskID))
	wantError(t, answer(t, c), "2", jsonrpc.CodeInternalError)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if l := answer(t, c); l != `{"jsonrpc":"2.0","id":3,"result":{}}` {
		t.Fatalf("ping after the task: %s", l)
	}
	c.end()
	if n := panics(t, m, "tools/call"); n != 1 {
		t.Errorf("mcpgen_panics_total{method=tools/call} = %v, want 1", n)
	}
}

// answer returns the next line that is not a notification; the task's
// status notifications must say it failed.
func answer(t *testing.T, c *stdioClient) string {
	t.Helper()
	for {
		l := c.next()
		if !strings.Contains(l, `"method":"notifications/tasks/status"`) {
			return l
		}
		if !strings.Contains(l, `"status":"failed"`) {
			t.Errorf("the task's status: %s, want failed", l)
		}
	}
}

// wantError checks that line is a JSON-RPC error for id with code.
func wantError(t *testing.T, line, id string, code int64) {
	t.Helper()
	var m struct {
		ID    json.RawMessage
		Error *struct{ Code int64 }
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil || m.Error == nil || string(m.ID) != id || m.Error.Code != code {
		t.Fatalf("got %s, want error %d for id %s", line, code, id)
	}
}

// serveLive serves srv over HTTP on loopback and returns the base URL.
func serveLive(t *testing.T, srv *runtime.Server, opts transport.HTTPOptions) string {
	t.Helper()
	_, url := serveServer(t, srv, opts)
	return url
}

// clientCaller calls tools on cs, returning a protocol error's code.
func clientCaller(t *testing.T, cs *mcp.ClientSession) caller {
	return func(t *testing.T, tool string) (string, bool, int64) {
		res, err := cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"text": "after"}})
		if err != nil {
			var we *jsonrpc.Error
			if !errors.As(err, &we) {
				t.Fatalf("%s: %v", tool, err)
			}
			return we.Message, false, we.Code
		}
		return runtime.ResultText(res), res.IsError, 0
	}
}

// openStdioCaller serves srv on stdio and calls tools with raw lines.
func openStdioCaller(t *testing.T, srv *runtime.Server) caller {
	c := startStdio(t, srv)
	t.Cleanup(func() { c.end() })
	c.send(initBody)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	id := 0
	return func(t *testing.T, tool string) (string, bool, int64) {
		id++
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"text":"after"}}}`, id, tool))
		var m struct {
			Result *mcp.CallToolResult
			Error  *struct {
				Code    int64
				Message string
			}
		}
		l := c.next()
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v: %s", tool, err, l)
		}
		if m.Error != nil {
			return m.Error.Message, false, m.Error.Code
		}
		return runtime.ResultText(m.Result), m.Result.IsError, 0
	}
}

// sseConn is a raw legacy HTTP+SSE session: messages are posted to the
// endpoint the stream names, and answers arrive on the stream.
type sseConn struct {
	endpoint string
	events   chan string
}

// openSSE opens the event stream and reads the endpoint event.
func openSSE(t *testing.T, base string) *sseConn {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+transport.SSEPath, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := testClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	s := &sseConn{events: make(chan string, 16)}
	sc := bufio.NewScanner(resp.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && event == "endpoint" {
			s.endpoint = base + d
			if strings.HasPrefix(d, "http") {
				s.endpoint = d
			}
			break
		}
	}
	if s.endpoint == "" {
		t.Fatal("no endpoint event on the SSE stream")
	}
	go func() {
		defer close(s.events)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				s.events <- d
			}
		}
	}()
	return s
}

func (s *sseConn) post(t *testing.T, body string) {
	t.Helper()
	resp, err := testClient.Post(s.endpoint, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: status %d", s.endpoint, resp.StatusCode)
	}
}

func (s *sseConn) next(t *testing.T) string {
	t.Helper()
	select {
	case m, ok := <-s.events:
		if !ok {
			t.Fatal("the SSE stream ended")
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message on the SSE stream in 10s")
	}
	return ""
}
