package transport_test

import (
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestSessionMovesBetweenReplicas: two replicas sharing their state in
// Redis, behind one address. A session opened on the first goes on on the
// second once requests reach it instead, with the log level it asked for,
// as when a load balancer sends a dead replica's sessions elsewhere.
func TestSessionMovesBetweenReplicas(t *testing.T) {
	addr := os.Getenv("MCPGEN_TEST_REDIS_ADDR")
	if addr == "" {
		t.Skip("MCPGEN_TEST_REDIS_ADDR is not set")
	}
	cfg := `version: 1
server:
  state: {redis: {addr: "` + addr + `", prefix: "scale-test:` + rand.Text()[:10] + `:"}}
tools:
  - name: logs
    description: Logs, then answers.
    steps: [{log: {level: debug, message: "debug {{ .args.n }}"}}]
    args: [{name: n, type: integer, default: 1}]
    content: [{text: "logged {{ .args.n }}"}]
  - name: block
    description: A backend that logs at warning.
    handler: {kind: probe}
`
	var replicas [2]http.Handler
	for i := range replicas {
		srv, _ := build(t, handlers.NewRegistry(newProbe(false).kind()), cfg, nil)
		h := transport.NewHTTPHandler(srv, transport.HTTPOptions{})
		t.Cleanup(h.Close)
		replicas[i] = h
	}
	var current atomic.Int32
	lb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		replicas[current.Load()].ServeHTTP(w, r)
	}))
	t.Cleanup(lb.Close)

	var rec recorder
	cs := connect(t, lb.URL, rec.options())
	ctx := testCtx(t)
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, ctx, cs, "logs", map[string]any{"n": 1})
	current.Store(1) // the first replica is gone for this client
	res := callTool(t, ctx, cs, "logs", map[string]any{"n": 2})
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || tc.Text != "logged 2" {
		t.Fatalf("call on the second replica: %+v", res)
	}
	// a backend's logs are built only for a session that asked for them
	callTool(t, ctx, cs, "block", nil)
	waitFor(t, "3 log messages", func() bool { logs, _, _ := rec.snapshot(); return len(logs) >= 3 })
	logs, _, _ := rec.snapshot()
	want := []*mcp.LoggingMessageParams{{Level: "debug", Logger: "logs", Data: "debug 1"}, {Level: "debug", Logger: "logs", Data: "debug 2"},
		{Level: "warning", Logger: "block", Data: map[string]any{"message": "backend says", "k": float64(1)}}}
	if diff := cmp.Diff(want, logs); diff != "" {
		t.Errorf("log messages (-want +got):\n%s", diff)
	}
}
