package runtime

import (
	"crypto/rand"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// sharedConfig is a server whose state is in the Redis at addr, under a
// prefix of its own.
func sharedConfig(addr, prefix string) string {
	return `version: 1
server:
  name: shared
  state: {redis: {addr: "` + addr + `", prefix: "` + prefix + `"}}
tools:
  - name: cached
    description: Cached for an hour, whichever replica answers.
    annotations: {read_only: true}
    cache: {ttl: 1h}
    handler: {kind: echo, result: ok}
  - name: limited
    description: Three calls an hour, whichever replica answers.
    rate_limit: {global: 3/h}
    args: [{name: n, type: integer}]
    handler: {kind: echo, result: ok}
`
}

// TestReplicasShareRateLimitsAndCache: two servers built from one config
// with server.state.redis share the rate limit's bucket and the cache.
func TestReplicasShareRateLimitsAndCache(t *testing.T) {
	addr := os.Getenv("MCPGEN_TEST_REDIS_ADDR")
	if addr == "" {
		t.Skip("MCPGEN_TEST_REDIS_ADDR is not set")
	}
	cfg := sharedConfig(addr, "scale-test:"+t.Name()+":"+rand.Text()[:8]+":")
	a, calls := countingServer(t, cfg)
	b, callsB := countingServer(t, cfg)
	allowed := 0
	for i := range 8 {
		srv := a
		if i%2 == 1 {
			srv = b
		}
		// distinct arguments: no call is answered from the cache
		if res := callAs(t, srv, nil, "limited", `{"n":`+string(rune('0'+i))+`}`); !res.IsError {
			allowed++
		}
	}
	if allowed != 3 {
		t.Errorf("%d calls allowed over two replicas, want 3", allowed)
	}
	if n := calls.Load() + callsB.Load(); n != 3 {
		t.Errorf("%d calls ran, want 3", n)
	}
	// a result kept by a is answered by b without running
	var before int64
	for _, srv := range []*Server{a, b} {
		res, err := sessionAs(t, srv, nil).CallTool(t.Context(), &mcp.CallToolParams{Name: "cached"})
		if err != nil || res.IsError {
			t.Fatalf("cached call failed: %v %v", res, err)
		}
		if srv == a {
			before = callsB.Load()
		}
	}
	if callsB.Load() != before {
		t.Error("the other replica ran a call whose result is in the shared cache")
	}
	if !a.SharedState().Up() {
		t.Error("shared state is down with Redis up")
	}
}

// TestSharedStateConfig: with Redis unreachable, /readyz's probes
// report the shared state as not OK but do not make the server unready, and
// calls are served; a wrong server.state is a positioned error.
func TestSharedStateConfig(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	_ = ln.Close()
	srv, _ := countingServer(t, sharedConfig(closed, "p:"))
	var found bool
	for _, p := range srv.Probes() {
		if p.Name == "shared state (redis)" {
			found = true
			if p.Required {
				t.Error("the shared state's probe is required: a replica without Redis must stay ready")
			}
			if err := p.Check(t.Context()); err == nil || !strings.Contains(err.Error(), "per-replica state") {
				t.Errorf("probe with Redis down = %v", err)
			}
		}
	}
	if !found {
		t.Fatal("no readiness probe for the shared state")
	}
	if res := callAs(t, srv, nil, "cached", `{}`); res.IsError {
		t.Errorf("a call with Redis down failed: %s", textOf(res.Content))
	}

	for _, tt := range []struct{ yaml, want string }{
		{`{redis: {addr: "redis"}}`, "server.state.redis.addr: addr must be host:port; e.g. redis:6379"},
		{`{redis: {addr: "r:6379", db: -1}}`, "server.state.redis.db: db must not be negative"},
		{`{redis: {adr: "r:6379"}}`, `unknown field "adr"; did you mean "addr"?`},
	} {
		_, ds := compileText(t, "version: 1\nserver:\n  state: "+tt.yaml+"\n", nil)
		if ds.Errors() == 0 || !strings.Contains(diagText(ds, ""), tt.want) {
			t.Errorf("state %s: got %v, want %q", tt.yaml, diagText(ds, ""), tt.want)
		}
	}
}
