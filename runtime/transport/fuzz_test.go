package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// fuzzServer is built once per fuzzing process: a config with a tool, a
// prompt, a resource and a template, and no backend that could block.
var fuzzServer = sync.OnceValue(func() *runtime.Server {
	srv, ds := runtime.Compile([]string{fuzzConfigPath()}, load.Options{}, runtime.BuildOptions{})
	if ds.Errors() > 0 {
		panic(ds)
	}
	return srv
})

// fuzzConfigPath is the fuzz config, written once per process.
var fuzzConfigPath = sync.OnceValue(writeFuzzConfig)

func writeFuzzConfig() string {
	dir, err := os.MkdirTemp("", "mcpgen-fuzz-")
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(robustConfig), 0o600); err != nil {
		panic(err)
	}
	return path
}

const pingAfterFuzz = `{"jsonrpc":"2.0","id":"ping-after-fuzz","method":"ping"}`

// FuzzStdioFraming feeds arbitrary bytes to stdio serving after a proper
// initialize: it must not panic, every line it writes must be one JSON-RPC
// 2.0 message (or a batch reply), and it must still answer a ping sent
// after the bytes.
func FuzzStdioFraming(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`hello`, `[]`, `[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, `{"jsonrpc":"1.0","id":8,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`, strings.Repeat("[", 2000),
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"fuzz://\u0000\u001b"}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"notes://\xff\"}}",
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\"\\"}}}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`, "\r\n\r\n", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	} {
		f.Add([]byte(seed))
	}
	srv := fuzzServer()
	f.Fuzz(func(t *testing.T, data []byte) {
		in := initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + string(data) + "\n" + pingAfterFuzz + "\n"
		var out bytes.Buffer
		opts := transport.StdioOptions{MaxMessage: 64 << 10, ShutdownTimeout: time.Second}
		if err := transport.ServeStdio(context.Background(), srv, strings.NewReader(in), &out, opts); err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
		pinged := false
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			line := sc.Bytes()
			checkJSONRPC(t, line)
			pinged = pinged || bytes.Equal(line, []byte(`{"jsonrpc":"2.0","id":"ping-after-fuzz","result":{}}`))
		}
		if !pinged {
			t.Fatalf("no answer to the ping sent after the input; output:\n%s", out.String())
		}
	})
}

// checkJSONRPC fails unless line is one JSON-RPC 2.0 message or an array
// of them.
func checkJSONRPC(t *testing.T, line []byte) {
	t.Helper()
	if !json.Valid(line) {
		t.Fatalf("invalid JSON written: %q", line)
	}
	var msgs []map[string]json.RawMessage
	if line[0] == '[' {
		_ = json.Unmarshal(line, &msgs)
	} else {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(line, &m)
		msgs = append(msgs, m)
	}
	for _, m := range msgs {
		_, hasID := m["id"]
		_, hasMethod := m["method"]
		_, hasResult := m["result"]
		_, hasError := m["error"]
		if string(m["jsonrpc"]) != `"2.0"` || (!hasMethod && (!hasID || hasResult == hasError)) {
			t.Fatalf("not a JSON-RPC 2.0 message: %s", line)
		}
	}
}

// fuzzHandler is the whole HTTP handler, stateful, built once per process.
var fuzzHandler = sync.OnceValue(func() *transport.HTTPHandler {
	return transport.NewHTTPHandler(fuzzServer(), transport.HTTPOptions{SessionTimeout: time.Second,
		MaxSessions: -1, MaxSessionsPerClient: -1, MaxBody: 64 << 10})
})

// FuzzHTTPHandler sends arbitrary requests (method, path, headers, body)
// to the whole HTTP handler: it must not panic, a JSON or event-stream
// answer must hold valid JSON, and the handler must still open a session
// afterwards.
func FuzzHTTPHandler(f *testing.F) {
	for _, s := range []struct{ method, path, header, body string }{
		{"POST", "/mcp", "", initBody},
		{"POST", "/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"POST", "/mcp", "Mcp-Session-Id: nope", `{"jsonrpc":"2.0","id":1,"method":"no/such"}`},
		{"POST", "/mcp", "", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`},
		{"POST", "/mcp", "Content-Type: text/plain", `{`},
		{"GET", "/mcp", "Last-Event-ID: x_1", ""},
		{"DELETE", "/mcp", "Mcp-Session-Id: x", ""},
		{"GET", "/sse", "", ""},
		{"POST", "/sse?sessionid=x", "", `{}`},
		{"GET", "/healthz", "Host: evil.example.com", ""},
		{"POST", "/mcp", "Origin: http://evil.example.com", initBody},
		{"POST", "/mcp", "Mcp-Protocol-Version: 2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`},
	} {
		f.Add(s.method, s.path, s.header, []byte(s.body))
	}
	h := fuzzHandler()
	f.Fuzz(func(t *testing.T, method, path, header string, body []byte) {
		req, err := http.NewRequest(method, "http://127.0.0.1"+path, bytes.NewReader(body))
		if err != nil || !strings.HasPrefix(req.URL.Path, "/") {
			return
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for line := range strings.Lines(header) {
			if k, v, ok := strings.Cut(line, ":"); ok {
				req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
			}
		}
		if req.Header.Get("Host") != "" {
			req.Host = req.Header.Get("Host")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond) // streams end here
		defer cancel()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req.WithContext(ctx))
		checkHTTPReply(t, rec)
		stillServes(t, h)
	})
}

func checkHTTPReply(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	body := rec.Body.Bytes()
	switch ct := rec.Header().Get("Content-Type"); {
	case strings.HasPrefix(ct, "application/json"):
		if len(body) > 0 && !json.Valid(body) {
			t.Fatalf("invalid JSON in a %d reply: %q", rec.Code, body)
		}
	case strings.HasPrefix(ct, "text/event-stream"):
		for line := range bytes.Lines(body) {
			if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && strings.TrimSpace(string(data)) != "" &&
				!json.Valid(data) && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("/")) { // legacy SSE endpoint URL
				t.Fatalf("invalid JSON in an event: %q", line)
			}
		}
	}
}

// stillServes opens and closes a session.
func stillServes(t *testing.T, h http.Handler) {
	t.Helper()
	req := httptest.NewRequest("POST", "http://127.0.0.1/mcp", strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	id := rec.Header().Get("Mcp-Session-Id")
	if rec.Code != http.StatusOK || id == "" {
		t.Fatalf("initialize after the input: status %d, session %q", rec.Code, id)
	}
	del := httptest.NewRequest("DELETE", "http://127.0.0.1/mcp", nil)
	del.Header.Set("Mcp-Session-Id", id)
	h.ServeHTTP(httptest.NewRecorder(), del)
}
