package transport_test

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const authResource = "https://mcp.test/mcp"

// authConfig has a public tool, an admin tool (a probe, to see whether it
// ran), a scoped resource and a scoped prompt, behind OAuth and one API key.
const authConfig = `
version: 1
server:
  http:
    auth:
      resource: ` + authResource + `
      required_scopes: [tools:read]
      on_insufficient_scope: %s
      oauth: {issuer: %s, jwks_url: %s, algorithms: [ES256]}
      api_keys: [{name: ci, key: ci-key-0123456789abcdef, scopes: [tools:read]}]
tools:
  - name: echo
    description: Echoes.
    args: [{name: text}]
    content: [{text: "{{ .args.text }}"}]
  - name: purge
    description: Deletes everything.
    scopes: [admin]
    args: [{name: secret_arg}]
    handler: {kind: probe}
resources:
  - {uri: docs://public, name: public, text: open}
  - {uri: docs://admin, name: admin, text: closed, scopes: [admin]}
prompts:
  - name: audit
    description: Admin prompt.
    scopes: [admin]
    messages: [{role: user, text: hi}]
`

// syncBuf is a log destination the test reads while the server writes.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type authServer struct {
	h     *transport.HTTPHandler
	url   string
	is    *authtest.Issuer
	probe *probe
	logs  *syncBuf
}

func serveAuth(t *testing.T, mode string, opts transport.HTTPOptions) *authServer {
	t.Helper()
	return serveAuthMore(t, mode, opts, "")
}

// serveAuthWith serves authConfig, on challenge, with more appended.
func serveAuthWith(t *testing.T, more string) *authServer {
	t.Helper()
	return serveAuthMore(t, "challenge", transport.HTTPOptions{}, more)
}

func serveAuthMore(t *testing.T, mode string, opts transport.HTTPOptions, more string) *authServer {
	t.Helper()
	is := authtest.NewIssuer(t)
	p := newProbe(false)
	reg := handlers.NewRegistry(p.kind())
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	writeFile(t, path, fmt.Sprintf(authConfig, mode, is.Name, is.JWKSURL)+more)
	logs := &syncBuf{}
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: reg,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	h := transport.NewHTTPHandler(srv, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.CloseClientConnections()
		ts.Close()
	})
	return &authServer{h: h, url: ts.URL, is: is, probe: p, logs: logs}
}

// bearer adds an Authorization header to every request it sends through
// next (the default transport when nil).
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	// A copy with its own headers, as a RoundTripper must not change the
	// request; not r.Clone, whose deep copy would weigh on the client side
	// of BenchmarkHTTPCallsAuth.
	c := *r
	c.Header = r.Header.Clone()
	c.Header.Set("Authorization", "Bearer "+b.token)
	return cmp.Or[http.RoundTripper](b.next, testTransport).RoundTrip(&c)
}

func (a *authServer) token(t *testing.T, scope string) string {
	return a.is.Sign(t, "k1", a.is.Claims(authResource, scope))
}

func (a *authServer) connect(t *testing.T, token string) (*mcp.ClientSession, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(testCtx(t), &mcp.StreamableClientTransport{Endpoint: a.url + transport.MCPPath,
		HTTPClient: &http.Client{Transport: bearer{token: token}}}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func names[T any](items []T, name func(T) string) []string {
	var out []string
	for _, it := range items {
		out = append(out, name(it))
	}
	return out
}

// listed returns what a session sees: tools, resources, prompts.
func listed(t *testing.T, cs *mcp.ClientSession) string {
	ctx := testCtx(t)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := append(names(tools.Tools, func(x *mcp.Tool) string { return x.Name }),
		names(res.Resources, func(x *mcp.Resource) string { return x.URI })...)
	return strings.Join(append(all, names(prompts.Prompts, func(x *mcp.Prompt) string { return x.Name })...), " ")
}

func TestAuthListsOnlyWhatTheCallerMayUse(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{})
	for _, tt := range []struct{ who, token, want string }{
		{"reader", a.token(t, "tools:read"), "echo docs://public"},
		{"admin", a.token(t, "tools:read admin"), "echo purge docs://admin docs://public audit"},
		{"API key", "ci-key-0123456789abcdef", "echo docs://public"},
	} {
		cs, err := a.connect(t, tt.token)
		if err != nil {
			t.Fatalf("%s: %v", tt.who, err)
		}
		if got := listed(t, cs); got != tt.want {
			t.Errorf("%s sees %q, want %q", tt.who, got, tt.want)
		}
	}
	// A wrong key is refused without the key reaching the log.
	if _, err := a.connect(t, "ci-key-0123456789abcdeX"); err == nil {
		t.Error("a key differing in one byte connected")
	}
	if logs := a.logs.String(); strings.Contains(logs, "ci-key-0123456789abcde") || !strings.Contains(logs, "authentication failed") {
		t.Errorf("log:\n%s", logs)
	}
}

func TestAuthRefusesWithAChallenge(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{})
	cs, err := a.connect(t, a.token(t, "tools:read"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = cs.CallTool(testCtx(t), &mcp.CallToolParams{Name: "purge", Arguments: map[string]any{"secret_arg": "hunter2"}})
	if err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Fatalf("reader calling purge: %v, want a 403", err)
	}
	if n := a.probe.calls.Load(); n != 0 {
		t.Errorf("purge ran %d times", n)
	}
	if _, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: "docs://admin"}); err == nil {
		t.Error("reader read docs://admin")
	}
	logs := a.logs.String()
	if !strings.Contains(logs, `subject=alice item="tools/call purge" outcome=denied needs="admin tools:read"`) || strings.Contains(logs, "hunter2") {
		t.Errorf("audit log:\n%s", logs)
	}
}

func TestAuthRefusesWithAToolError(t *testing.T) {
	a := serveAuth(t, "tool_error", transport.HTTPOptions{})
	cs, err := a.connect(t, a.token(t, "tools:read"))
	if err != nil {
		t.Fatal(err)
	}
	res := callTool(t, testCtx(t), cs, "purge", map[string]any{"secret_arg": "hunter2"})
	if !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"purge" needs the scope(s) admin`) {
		t.Errorf("reader calling purge: %+v", res)
	}
	if n := a.probe.calls.Load(); n != 0 {
		t.Errorf("purge ran %d times", n)
	}
	_, err = cs.GetPrompt(testCtx(t), &mcp.GetPromptParams{Name: "audit"})
	if err == nil || !strings.Contains(err.Error(), "needs the scope(s) admin") {
		t.Errorf("reader getting the admin prompt: %v", err)
	}
}

func TestAuthAdminCallsAndIsAudited(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{})
	cs, err := a.connect(t, a.token(t, "tools:read admin"))
	if err != nil {
		t.Fatal(err)
	}
	if res := callTool(t, testCtx(t), cs, "purge", map[string]any{"secret_arg": "hunter2"}); res.IsError {
		t.Fatalf("admin calling purge: %+v", res)
	}
	if n := a.probe.calls.Load(); n != 1 {
		t.Errorf("purge ran %d times, want 1", n)
	}
	if got := a.probe.lastSubject(); got != "alice" {
		t.Errorf("the handler saw caller %q, want alice", got)
	}
	logs := a.logs.String()
	if !strings.Contains(logs, "msg=call subject=alice tool=purge outcome=ok duration=") || strings.Contains(logs, "hunter2") {
		t.Errorf("audit log:\n%s", logs)
	}
}

func TestAuthHTTPAnswers(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(headers map[string]string, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, a.url+transport.MCPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post(nil, init)
	want := `Bearer scope="tools:read", resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"`
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
		t.Errorf("no token: %d %q, want 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
	}
	// The credential is checked before the body is read: what the body
	// would have been answered (an unknown method, a call without a
	// session) is not told to a client without one.
	for _, body := range []string{`{"jsonrpc":"2.0","id":1,"method":"no/such"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`} {
		if resp := post(nil, body); resp.StatusCode != 401 {
			t.Errorf("no token, %s: %d, want 401", body, resp.StatusCode)
		}
	}
	if resp := post(map[string]string{"Authorization": "Bearer " + strings.Repeat("a", 1<<20)}, init); resp.StatusCode != 400 ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="invalid_request"`) {
		t.Errorf("1 MiB header: %d %q, want 400 invalid_request", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	if resp := post(map[string]string{"Authorization": "Bearer " + a.token(t, "admin")}, init); resp.StatusCode != 403 ||
		!strings.Contains(resp.Header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="tools:read"`) {
		t.Errorf("without the required scope: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	// Sessions only for authenticated callers: none of the refused
	// initialize requests above opened one.
	if n := a.h.SessionCount(); n != 0 {
		t.Errorf("%d sessions after refused initialize requests, want 0", n)
	}
	for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		r, err := testClient.Get(a.url + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || !bytes.Contains(body, []byte(`"resource":"`+authResource+`"`)) {
			t.Errorf("GET %s: %d %s", p, r.StatusCode, body)
		}
	}
	if r, err := testClient.Get(a.url + transport.SSEPath); err != nil || r.StatusCode != 404 {
		t.Errorf("legacy SSE endpoint with auth: %v %v, want 404", r.StatusCode, err)
	}
}

func TestAuthSessionBelongsToItsCaller(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{})
	cs, err := a.connect(t, a.token(t, "tools:read admin"))
	if err != nil {
		t.Fatal(err)
	}
	claims := a.is.Claims(authResource, "tools:read admin")
	claims["sub"] = "mallory"
	req, _ := http.NewRequest(http.MethodPost, a.url+transport.MCPPath,
		strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+a.is.Sign(t, "k1", claims))
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("another caller on alice's session: %d, want 403", resp.StatusCode)
	}
}

func TestAuthCallerReachesHandlers(t *testing.T) {
	a := serveAuth(t, "challenge", transport.HTTPOptions{Stateless: true})
	cs, err := a.connect(t, a.token(t, "tools:read admin"))
	if err != nil {
		t.Fatal(err)
	}
	callTool(t, testCtx(t), cs, "purge", nil)
	if got := a.probe.lastSubject(); got != "alice" {
		t.Errorf("the handler saw caller %q, want alice", got)
	}
}
