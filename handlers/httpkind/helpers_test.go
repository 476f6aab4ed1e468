package httpkind_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/handlers/httpkind"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func registry() *handlers.Registry { return handlers.NewRegistry(httpkind.Kind()) }

// recorded is one request a test server received.
type recorded struct {
	Method, Path, RawPath, RawQuery, Body string
	Header                                http.Header
}

// recorder is a test server that records requests and answers with fn.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newRecorder(t testing.TB, fn http.HandlerFunc) *recorder {
	t.Helper()
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var b strings.Builder
		if req.Body != nil {
			buf := make([]byte, 1<<20)
			for {
				n, err := req.Body.Read(buf)
				b.Write(buf[:n])
				if err != nil {
					break
				}
			}
		}
		r.mu.Lock()
		r.reqs = append(r.reqs, recorded{Method: req.Method, Path: req.URL.Path, RawPath: req.URL.EscapedPath(),
			RawQuery: req.URL.RawQuery, Body: b.String(), Header: req.Header.Clone()})
		r.mu.Unlock()
		req.Body = io.NopCloser(strings.NewReader(b.String()))
		fn(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

func (r *recorder) last(t testing.TB) recorded {
	t.Helper()
	reqs := r.requests()
	if len(reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return reqs[len(reqs)-1]
}

// jsonReply answers with status and v as JSON.
func jsonReply(status int, v any) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
}

// withBackend is a config with a backend "api" at url, then rest.
func withBackend(url, backendExtra, tools string) string {
	return "version: 1\nbackends:\n  api:\n    kind: http\n    base_url: " + url + "\n" + indent(backendExtra, "    ") +
		"tools:\n" + tools
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func build(t testing.TB, config string) *runtime.Server {
	t.Helper()
	return handlertest.Build(t, registry(), config, nil)
}

func call(t testing.TB, srv *runtime.Server, tool, args string) *mcp.CallToolResult {
	t.Helper()
	return handlertest.Call(t, context.Background(), srv, tool, args)
}

// mustSucceed fails the test unless res is a success, and returns its text.
func mustSucceed(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if res.IsError {
		t.Fatalf("unexpected error result: %s", handlertest.Text(res))
	}
	return handlertest.Text(res)
}

// mustFail fails the test unless res is an error, and returns its text.
func mustFail(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want an error result, got %s", handlertest.Text(res))
	}
	return handlertest.Text(res)
}

// diagnose builds config and returns its diagnostics as text.
func diagnose(t testing.TB, config string) string {
	t.Helper()
	return handlertest.Diagnose(t, registry(), config).Error()
}
