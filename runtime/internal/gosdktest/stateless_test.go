package gosdktest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// A stateless POST's session is fed by Deliver alone: it starts no reading
// goroutine, and nothing of it outlives the POST.

// statelessPOST serves one stateless POST of body with h and returns the
// response's body.
func statelessPOST(h http.Handler, body string) string {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Body.String()
}

func statelessEcho() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
}

const echoCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}`

// TestStatelessPOSTStartsNoGoroutine: stateless POSTs of quick calls start
// no goroutine (upstream starts one a POST, its session's reader), and
// leave none behind.
func TestStatelessPOSTStartsNoGoroutine(t *testing.T) {
	h := statelessEcho()
	if body := statelessPOST(h, echoCall); !strings.Contains(body, `"text":"ok"`) {
		t.Fatalf("the call is unanswered: %s", body)
	}
	const posts = 100
	running := runtime.NumGoroutine()
	before := goroutinesCreated()
	for range posts {
		if body := statelessPOST(h, echoCall); !strings.Contains(body, `"text":"ok"`) {
			t.Fatalf("the call is unanswered: %s", body)
		}
	}
	if n := goroutinesCreated() - before; float64(n)/posts >= 0.5 {
		t.Errorf("%d stateless POSTs started %d goroutines", posts, n)
	}
	if n := runtime.NumGoroutine(); n > running {
		t.Errorf("%d goroutines before the POSTs, %d after", running, n)
	}
}
