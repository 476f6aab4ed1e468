package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// robustConfig has a resource, a template, a prompt and a tool: every
// kind of name a client can get wrong.
const robustConfig = `
version: 1
tools:
  - name: echo
    description: Echoes.
    args: [{name: text, required: true}]
    content: [{text: "{{ .args.text }}"}]
prompts:
  - name: hello
    description: Says hello.
    arguments: [{name: who, complete: [ada, bob]}]
    messages: [{role: user, text: "hello"}]
resources:
  - {uri: "robust://about", name: about, text: "about"}
resource_templates:
  - {uri_template: "notes://{name}", name: note, text: "note {{ .args.name }}"}
`

// hostile are strings a client may send that come back inside errors.
var hostile = []string{"\x00", "a\x01b\x1f", "\x7f", "\xff\xfe", "\xed\xa0\x80", `"`, `\`, `\"`, "\u2028", "</script>", "%q"}

// rawJSONString writes s as a JSON string keeping invalid UTF-8 bytes as they
// are (encoding/json would replace them).
func rawJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// payloads returns the JSON-RPC messages of a response: its body, or the
// data of each event of a stream.
func payloads(t testing.TB, resp *http.Response) [][]byte {
	t.Helper()
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return [][]byte{body}
	}
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && strings.TrimSpace(data) != "" {
			out = append(out, []byte(data))
		}
	}
	return out
}

// errorOf checks a response carries one JSON-RPC error and returns it.
func errorOf(t testing.TB, resp *http.Response) (id string, code int64) {
	t.Helper()
	ps := payloads(t, resp)
	if len(ps) != 1 {
		t.Fatalf("status %d, %d messages: %q", resp.StatusCode, len(ps), ps)
	}
	var m struct {
		ID    json.RawMessage
		Error *struct{ Code int64 }
	}
	if err := json.Unmarshal(ps[0], &m); err != nil || m.Error == nil {
		t.Fatalf("status %d, not a JSON-RPC error: %s", resp.StatusCode, ps[0])
	}
	return string(m.ID), m.Error.Code
}

// TestHTTPClientStringsInErrors sends hostile strings where error replies
// echo them, stateful and stateless: every reply is valid JSON, and the
// session still answers afterwards.
func TestHTTPClientStringsInErrors(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless=%v", stateless), func(t *testing.T) {
			t.Parallel()
			_, base, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{Stateless: stateless})
			session := ""
			if !stateless {
				session = rawSession(t, base)
			}
			id := 1
			for _, s := range hostile {
				q := rawJSONString(s)
				for _, r := range []struct{ method, params string }{
					{"resources/read", `{"uri":` + rawJSONString("robust://"+s) + `}`},
					{"resources/read", `{"uri":` + q + `}`},
					{"resources/read", `{"uri":` + rawJSONString("notes://"+s) + `}`},
					{"tools/call", `{"name":` + q + `,"arguments":{}}`},
					{"tools/call", `{"name":"echo","arguments":{"text":` + q + `,"x":` + q + `}}`},
					{"prompts/get", `{"name":` + q + `}`},
					{"completion/complete", `{"ref":{"type":` + q + `},"argument":{"name":"a","value":"b"}}`},
					{"logging/setLevel", `{"level":` + q + `}`},
				} {
					body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, r.method, r.params)
					id++
					resp := rawRequest{body: body, session: !stateless}.do(t, testCtx(t), base, session)
					for _, p := range payloads(t, resp) {
						if !json.Valid(p) {
							t.Errorf("%s %q: invalid JSON %q", r.method, s, p)
						}
					}
				}
			}
			resp := rawRequest{body: `{"jsonrpc":"2.0","id":0,"method":"ping"}`, session: !stateless}.do(t, testCtx(t), base, session)
			if ps := payloads(t, resp); resp.StatusCode != 200 || len(ps) != 1 || !bytes.Contains(ps[0], []byte(`"result"`)) {
				t.Errorf("ping after: status %d, %q", resp.StatusCode, ps)
			}
		})
	}
}

// TestHTTPProtocolErrors: an unknown method is a JSON-RPC -32601 (not a
// text 400), and a request without a session id on a stateful server is a
// 400 (the spec's SHOULD) without opening a session.
func TestHTTPProtocolErrors(t *testing.T) {
	t.Parallel()
	h, base, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{})
	session := rawSession(t, base)
	resp := rawRequest{body: `{"jsonrpc":"2.0","id":"u","method":"no/such"}`, session: true}.do(t, testCtx(t), base, session)
	if id, code := errorOf(t, resp); id != `"u"` || code != -32601 {
		t.Errorf("unknown method: id %s, code %d; want \"u\", -32601", id, code)
	}
	for _, tt := range []struct{ body, id string }{
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "1.5"},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null"},
		{`{"jsonrpc":"2.0","id":123456789012345678901,"method":"ping"}`, "123456789012345678901"},
	} {
		resp = rawRequest{body: tt.body, session: true}.do(t, testCtx(t), base, session)
		if id, code := errorOf(t, resp); id != tt.id || code != -32600 || resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, id %s, code %d; want 400, %s, -32600", tt.body, resp.StatusCode, id, code, tt.id)
		}
	}
	resp = rawRequest{body: `{"jsonrpc":"2.0","method":"notifications/no/such"}`, session: true}.do(t, testCtx(t), base, session)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("unknown notification: status %d, want 202", resp.StatusCode)
	}
	before := h.SessionCount()
	for _, body := range []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`} {
		resp = rawRequest{body: body}.do(t, testCtx(t), base, "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s without a session: status %d, want 400", body, resp.StatusCode)
		}
	}
	if after := h.SessionCount(); after != before {
		t.Errorf("requests without a session opened sessions: %d, then %d", before, after)
	}
	// Stateless: unknown methods too.
	_, sbase, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{Stateless: true})
	resp = rawRequest{body: `{"jsonrpc":"2.0","id":3,"method":"no/such"}`}.do(t, testCtx(t), sbase, "")
	if id, code := errorOf(t, resp); id != "3" || code != -32601 {
		t.Errorf("stateless unknown method: id %s, code %d; want 3, -32601", id, code)
	}
}

// TestHTTPStatelessDisconnectCancels: in stateless mode too, a client that
// goes away cancels its call.
func TestHTTPStatelessDisconnectCancels(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{Stateless: true})
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := rawRequestCtx(ctx, base, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	<-p.started
	cancel()
	<-done
	waitFor(t, "the backend call to be canceled", func() bool { return p.canceled.Load() == 1 })
}

func rawRequestCtx(ctx context.Context, base, body string) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+transport.MCPPath, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return testClient.Do(req)
}

// TestHTTPCallCaps: calls beyond the global cap, or beyond one backend's,
// get a clear error while the others run; below the caps calls run.
func TestHTTPCallCaps(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts transport.HTTPOptions
		want string
	}{
		{"global", transport.HTTPOptions{Stateless: true, MaxCalls: 2}, "server busy"},
		{"per backend, no queue", transport.HTTPOptions{Stateless: true, MaxCallsPerBackend: 2, BackendQueue: -1}, `backend \"probe\" busy`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newProbe(true)
			_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, tt.opts)
			call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() {
					resp, err := rawRequestCtx(testCtx(t), base, call)
					if err == nil {
						payloads(t, resp)
					}
				})
			}
			<-p.started
			<-p.started
			resp, err := rawRequestCtx(testCtx(t), base, call)
			if err != nil {
				t.Fatal(err)
			}
			ps := payloads(t, resp)
			if len(ps) != 1 || !bytes.Contains(ps[0], []byte(tt.want)) || !bytes.Contains(ps[0], []byte(`"error"`)) {
				t.Errorf("third call: %q; want an error saying %q", ps, tt.want)
			}
			close(p.release)
			wg.Wait()
			resp, _ = rawRequestCtx(testCtx(t), base, call)
			if ps := payloads(t, resp); len(ps) == 0 || !bytes.Contains(ps[len(ps)-1], []byte("probe ran")) {
				t.Errorf("call after the others ended: %q", ps)
			}
		})
	}
}
