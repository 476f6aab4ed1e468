package runtime

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
)

const limitConfig = `version: 1
server:
  rate_limit: {per_caller: 1/h, burst: 1}
tools:
  - name: limited
    description: Two calls an hour.
    rate_limit: {per_caller: 2/h}
    handler: {kind: echo, result: ok}
  - name: fallback
    description: The server's limit.
    handler: {kind: echo, result: ok}
`

func TestRateLimit(t *testing.T) {
	srv, calls := countingServer(t, limitConfig)
	bob := auth.NewCaller(auth.Caller{Subject: "bob"}, "")
	for i := range 2 {
		if res := callAs(t, srv, alice, "limited", `{}`); res.IsError {
			t.Fatalf("call %d refused: %s", i, textOf(res.Content))
		}
	}
	res := callAs(t, srv, alice, "limited", `{}`)
	want := "rate limit exceeded: tool limited allows 2/h per caller (burst 2); retry in 30m0s"
	if !res.IsError || textOf(res.Content) != want {
		t.Errorf("third call = %v %q, want %q", res.IsError, textOf(res.Content), want)
	}
	if calls.Load() != 2 {
		t.Errorf("%d handler calls, want 2: a refused call runs nothing", calls.Load())
	}
	// each caller has a bucket; each tool too
	if res := callAs(t, srv, bob, "limited", `{}`); res.IsError {
		t.Errorf("another caller refused: %s", textOf(res.Content))
	}
	if res := callAs(t, srv, alice, "fallback", `{}`); res.IsError {
		t.Errorf("another tool refused: %s", textOf(res.Content))
	}
	// the server's limit applies to tools without their own, anonymous
	// callers sharing one bucket
	if res := callAs(t, srv, alice, "fallback", `{}`); !res.IsError || !strings.Contains(textOf(res.Content), "allows 1/h per caller (burst 1); retry in 1h0m0s") {
		t.Errorf("server limit = %v %q", res.IsError, textOf(res.Content))
	}
	callAs(t, srv, nil, "fallback", `{}`)
	if res := callAs(t, srv, nil, "fallback", `{}`); !res.IsError {
		t.Error("anonymous callers do not share a bucket")
	}
}

func TestRateLimitDiagnostics(t *testing.T) {
	for _, tt := range []struct{ rate, want string }{
		{"10", `tools[0].rate_limit.per_caller: invalid rate "10"; write a number of calls per second, minute or hour: 10/s, 100/m, 1000/h`},
		{"10/d", `invalid rate "10/d"`},
		{"0/s", `invalid rate "0/s"`},
		{"-1/s", `invalid rate "-1/s"`},
	} {
		_, ds := compileText(t, `version: 1
tools:
  - name: t
    description: d
    rate_limit: {per_caller: "`+tt.rate+`"}
    content: [{text: ok}]
`, nil)
		wantDiag(t, ds, tt.want)
	}
	_, ds := compileText(t, `version: 1
server: {rate_limit: {per_caller: 5/s, burst: -1}}
`, nil)
	wantDiag(t, ds, "server.rate_limit.burst:")
}

// brokenStore is a rate limit store that cannot decide.
type brokenStore struct{}

func (brokenStore) Allow(context.Context, string, ratelimit.Limit) (time.Duration, error) {
	return 0, errors.New("store down")
}

// TestRateLimitStoreDown: when the buckets cannot be reached, calls are
// refused (failing closed), and the operator is told.
func TestRateLimitStoreDown(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": limitConfig})
	var logs syncBuffer
	srv, ds := Compile([]string{dir + "/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil), RateLimiter: brokenStore{}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	res := callAs(t, srv, alice, "limited", `{}`)
	if !res.IsError || textOf(res.Content) != "rate limit unavailable; retry later" {
		t.Errorf("call = %v %q", res.IsError, textOf(res.Content))
	}
	if !strings.Contains(logs.String(), "store down") {
		t.Errorf("the operator log does not say why: %q", logs.String())
	}
}

// BenchmarkCallEcho and BenchmarkCallEchoAsCaller measure what acting as
// the caller adds to tools/call (in memory): a rate limit per caller, an
// argument bound to the subject, `auth` in an expression.
func BenchmarkCallEcho(b *testing.B) {
	srv := mustCompile(b, `version: 1
tools:
  - {name: ping, description: d, handler: {kind: echo, result: "${{ 'pong' }}"}}
`, nil)
	benchCall(b, connect(b, srv.MCP()))
}

func BenchmarkCallEchoAsCaller(b *testing.B) {
	srv := mustCompile(b, `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}], claims: {email: string}}}, rate_limit: {per_caller: 1000000000/s}}
tools:
  - name: ping
    description: d
    args: [{name: owner, from: auth.subject, required: true}]
    handler: {kind: echo, result: "${{ args.owner == auth.subject ? 'pong' : 'no' }}"}
`, nil)
	benchCall(b, sessionAs(b, srv, alice))
}
