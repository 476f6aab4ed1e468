package gosdktest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// A stateless POST's session is fed by Deliver alone: it starts no reading
// goroutine, and nothing of it outlives the POST.

// statelessEcho serves, statelessly, a tool "echo" that answers at once
// and a tool "wait" that returns once its context is done, which it
// signals on started first.
func statelessEcho(started chan<- struct{}) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "wait"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
}

// newStatelessPOST is a POST calling tool at protocol version, with the
// headers and _meta 2026-07-28 wants.
func newStatelessPOST(ctx context.Context, version, tool string) *http.Request {
	meta := ""
	if version >= "2026-07-28" {
		meta = `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}`
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}` + meta + `}}`
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": version, "Mcp-Method": "tools/call", "Mcp-Name": tool} {
		req.Header.Set(k, v)
	}
	return req
}

// TestStatelessPOSTStartsNoGoroutine: stateless POSTs of quick calls start
// no goroutine (upstream starts one a POST, its session's reader), and
// leave none behind, whether their request's cancellation reaches
// handlers (2026-07-28 with PropagateRequestCancellation) or not.
func TestStatelessPOSTStartsNoGoroutine(t *testing.T) {
	h := statelessEcho(nil)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		post := func() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, newStatelessPOST(context.Background(), version, "echo"))
			if body := rec.Body.String(); !strings.Contains(body, `"text":"ok"`) {
				t.Fatalf("%s: the call is unanswered: %s", version, body)
			}
		}
		post()
		const posts = 100
		running := runtime.NumGoroutine()
		before := goroutinesCreated()
		for range posts {
			post()
		}
		if n := goroutinesCreated() - before; float64(n)/posts >= 0.5 {
			t.Errorf("%s: %d stateless POSTs started %d goroutines", version, posts, n)
		}
		if n := runtime.NumGoroutine(); n > running {
			t.Errorf("%s: %d goroutines before the POSTs, %d after", version, running, n)
		}
	}
}

// TestStatelessCallStopsWhenItsClientLeaves: with no reader, a call of a
// 2026-07-28 stateless POST still sees its client go away, and the POST
// ends.
func TestStatelessCallStopsWhenItsClientLeaves(t *testing.T) {
	started := make(chan struct{}, 1)
	h := statelessEcho(started)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(httptest.NewRecorder(), newStatelessPOST(ctx, "2026-07-28", "wait"))
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not start")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the POST did not end when its client went away")
	}
}
