package runtime

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// gate is a test kind whose calls wait until the gate opens; its named
// backends are a value that can be pinged.
type gate struct {
	open    chan struct{}
	running atomic.Int64
}

type gateConfig struct{ g *gate }

func (c *gateConfig) Build(handlers.BuildEnv) handlers.Handler { return c }

func (c *gateConfig) Call(ctx context.Context, _ *handlers.Call) (*handlers.Result, error) {
	c.g.running.Add(1)
	defer c.g.running.Add(-1)
	select {
	case <-c.g.open:
		return handlers.TextResult("passed"), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type gateBackend struct{}

func (*gateBackend) Open(handlers.BuildEnv) any { return gateBackend{} }

func gateRegistry(g *gate) *handlers.Registry {
	return handlers.NewRegistry(handlers.Kind{Name: "gate", Doc: "Waits.",
		NewConfig:  func() handlers.Config { return &gateConfig{g: g} },
		NewBackend: func() handlers.BackendConfig { return &gateBackend{} }})
}

func compileWith(t *testing.T, config string, opts BuildOptions) *Server {
	t.Helper()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": config})
	srv, ds := Compile([]string{dir + "/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)}, opts)
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// TestConcurrencyLimits: beyond a tool's or a backend's cap, a call waits
// for the configured time, then gets a tool error naming the limit; a
// slot freed in time lets it run.
func TestConcurrencyLimits(t *testing.T) {
	g := &gate{open: make(chan struct{})}
	obs := &observe.Observer{Metrics: observe.NewMetrics()}
	srv := compileWith(t, `version: 1
backends:
  pool: {kind: gate, concurrency: {max: 2, wait: 50ms}}
tools:
  - {name: one, description: d, concurrency: {max: 1, wait: 50ms}, handler: {kind: gate}}
  - {name: a, description: d, handler: {backend: pool}}
  - {name: b, description: d, handler: {backend: pool}}
`, BuildOptions{Registry: gateRegistry(g), Observer: obs})
	cs := sessionAs(t, srv, nil)
	ctx := context.Background()
	results := make(chan *mcp.CallToolResult, 3)
	call := func(name string) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name})
		if err != nil {
			t.Error(err)
		}
		results <- res
	}
	go call("one")
	go call("a")
	go call("b")
	waitUntil(t, "three calls running", func() bool { return g.running.Load() == 3 })
	for _, tt := range []struct{ tool, want string }{
		{"one", `tool "one" is at its concurrency limit (1 calls at once, waited 50ms); retry later`},
		{"a", `backend "pool" is at its concurrency limit (2 calls at once, waited 50ms); retry later`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool})
		if err != nil || !res.IsError || textOf(res.Content) != tt.want {
			t.Errorf("%s over its cap = %v %v, want %q", tt.tool, err, res, tt.want)
		}
	}
	// a call that waits long enough gets the slot
	waiting := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "one"})
		waiting <- res
	}()
	close(g.open)
	for range 3 {
		if res := <-results; res.IsError {
			t.Errorf("a call within the cap failed: %s", textOf(res.Content))
		}
	}
	if res := <-waiting; res == nil {
		t.Error("no result")
	}
	var out strings.Builder
	_ = writeMetrics(obs, &out)
	for _, want := range []string{`mcpgen_concurrency_refused_total{limit="tool",name="one"} 1`,
		`mcpgen_concurrency_refused_total{limit="backend",name="pool"} 1`,
		`mcpgen_tool_calls_total{outcome="refused",tool="one"} 1`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// waitUntil polls cond for up to 10 seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestGlobalRateLimit: a global limit counts every caller's calls together,
// beside each caller's own.
func TestGlobalRateLimit(t *testing.T) {
	srv, calls := countingServer(t, `version: 1
tools:
  - name: shared
    description: Three calls an hour for everyone, two per caller.
    rate_limit: {per_caller: 2/h, global: 3/h}
    handler: {kind: echo, result: ok}
`)
	bob := auth.NewCaller(auth.Caller{Subject: "bob"}, "")
	carol := auth.NewCaller(auth.Caller{Subject: "carol"}, "")
	for _, c := range []*auth.Caller{alice, alice, bob} {
		if res := callAs(t, srv, c, "shared", `{}`); res.IsError {
			t.Fatalf("call by %s refused: %s", c.Subject, textOf(res.Content))
		}
	}
	if got := textOf(callAs(t, srv, alice, "shared", `{}`).Content); !strings.Contains(got, "allows 2/h per caller") {
		t.Errorf("alice's third call: %q", got)
	}
	got := textOf(callAs(t, srv, carol, "shared", `{}`).Content)
	if want := "rate limit exceeded: tool shared allows 3/h for all callers together (burst 3); retry in 20m0s"; got != want {
		t.Errorf("carol's call = %q, want %q", got, want)
	}
	if calls.Load() != 3 {
		t.Errorf("%d handler calls, want 3", calls.Load())
	}
	_, ds := compileText(t, "version: 1\nserver: {rate_limit: {burst: 2}}\n", nil)
	wantDiag(t, ds, "server.rate_limit: a rate limit needs per_caller, global or both; e.g. per_caller: 10/s")
}

const cacheConfig = `version: 1
tools:
  - name: lookup
    description: Reads.
    args: [{name: q}, {name: n, type: integer}]
    annotations: {read_only: true}
    cache: {ttl: 1h}
    handler: {kind: echo, result: "${{ 'found ' + args.q }}"}
  - name: failing
    description: Fails.
    annotations: {read_only: true}
    cache: {ttl: 1h}
    handler: {kind: echo, result: x, refuse: no}
`

// TestCache: the same arguments, in any order, get the kept result and
// run nothing; other arguments run; failures are not kept.
func TestCache(t *testing.T) {
	calls := new(atomic.Int64)
	obs := &observe.Observer{Metrics: observe.NewMetrics()}
	srv := compileWith(t, cacheConfig, BuildOptions{Registry: testRegistry(calls), Observer: obs})
	cs := sessionAs(t, srv, nil)
	ctx := context.Background()
	for i, args := range []string{`{"q": "a", "n": 1}`, `{"n": 1, "q": "a"}`, `{"q": "b", "n": 1}`, `{"n":1,"q":"a"}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup", Arguments: jsonRaw(args)})
		if err != nil || res.IsError {
			t.Fatalf("call %d: %v %v", i, err, res)
		}
		if want := "found " + map[bool]string{true: "b", false: "a"}[i == 2]; textOf(res.Content) != want {
			t.Errorf("call %d = %q, want %q", i, textOf(res.Content), want)
		}
	}
	if calls.Load() != 2 {
		t.Errorf("%d handler calls, want 2", calls.Load())
	}
	for range 2 {
		if res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "failing"}); !res.IsError {
			t.Fatal("failing did not fail")
		}
	}
	if calls.Load() != 4 {
		t.Errorf("%d handler calls, want 4: a failure is not kept", calls.Load())
	}
	var out strings.Builder
	_ = writeMetrics(obs, &out)
	for _, want := range []string{`mcpgen_cache_requests_total{result="hit",tool="lookup"} 2`,
		`mcpgen_cache_requests_total{result="miss",tool="lookup"} 2`, `mcpgen_tool_calls_total{outcome="cached",tool="lookup"} 2`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestCachePerCaller: with authentication, results are kept per caller by
// default, so one caller never gets another's.
func TestCachePerCaller(t *testing.T) {
	srv, calls := countingServer(t, `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
tools:
  - name: mine
    description: Reads for the caller.
    annotations: {read_only: true}
    cache: {ttl: 1h}
    handler: {kind: echo, result: "${{ 'for ' + auth.subject }}"}
  - name: shared
    description: The same for all.
    annotations: {read_only: true}
    cache: {ttl: 1h, per_caller: false}
    handler: {kind: echo, result: same}
`)
	bob := auth.NewCaller(auth.Caller{Subject: "bob"}, "")
	for _, c := range []*auth.Caller{alice, bob, alice, bob} {
		res, err := sessionAs(t, srv, c).CallTool(context.Background(), &mcp.CallToolParams{Name: "mine"})
		if err != nil || textOf(res.Content) != "for "+c.Subject {
			t.Fatalf("%s got %v %v", c.Subject, err, res)
		}
		_, _ = sessionAs(t, srv, c).CallTool(context.Background(), &mcp.CallToolParams{Name: "shared"})
	}
	if calls.Load() != 3 {
		t.Errorf("%d handler calls, want 3 (mine once per caller, shared once)", calls.Load())
	}
}

func TestCacheDiagnostics(t *testing.T) {
	for _, tt := range []struct{ tool, want string }{
		{`{name: w, description: d, cache: {ttl: 1m}, handler: {kind: echo, result: x}}`,
			"tools[0].cache: cache is for read-only tools: a cached call runs nothing; set annotations.read_only: true if the tool only reads"},
		{`{name: w, description: d, annotations: {read_only: true}, cache: {ttl: 0s}, handler: {kind: echo, result: x}}`,
			"tools[0].cache.ttl: ttl must be positive"},
		{`{name: w, description: d, annotations: {read_only: true}, cache: {ttl: 1m, per_caller: false}, handler: {kind: echo, result: "${{ auth.subject }}"}}`,
			"tools[0].cache.per_caller: the tool reads `auth`"},
		{`{name: w, description: d, concurrency: {max: 0}, content: [{text: x}]}`,
			"tools[0].concurrency.max: max must be at least 1, got 0"},
	} {
		_, ds := compileText(t, "version: 1\nserver: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}\ntools:\n  - "+tt.tool+"\n", nil)
		wantDiag(t, ds, tt.want)
	}
}

func jsonRaw(s string) json.RawMessage { return json.RawMessage(s) }

// writeMetrics writes obs's metrics in the Prometheus text format.
func writeMetrics(obs *observe.Observer, w io.Writer) error {
	rec := httptest.NewRecorder()
	obs.Metrics.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	_, err := io.Copy(w, rec.Body)
	return err
}

// BenchmarkCallEchoMetrics is BenchmarkCallEcho with metrics on, as
// `mcpgen serve` runs (tracing off).
func BenchmarkCallEchoMetrics(b *testing.B) {
	dir := writeFiles(b, map[string]string{"mcpgen.yaml": `version: 1
tools:
  - {name: ping, description: d, handler: {kind: echo, result: "${{ 'pong' }}"}}
`})
	srv, ds := Compile([]string{dir + "/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil), Observer: &observe.Observer{Metrics: observe.NewMetrics()}})
	if ds.Errors() > 0 {
		b.Fatal(ds)
	}
	b.Cleanup(func() { srv.Close() })
	benchCall(b, connect(b, srv.MCP()))
}
