package reload

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// config is a config of the test kind with the given tools (name: wait).
func config(label string, tools ...string) string {
	var b strings.Builder
	b.WriteString("version: 1\nbackends:\n  db: {kind: pool, label: " + label + "}\ntools:\n")
	for _, t := range tools {
		name, wait, _ := strings.Cut(t, ":")
		b.WriteString("  - {name: " + name + ", description: d, handler: {backend: db, wait: " + cmpStr(wait, "false") + "}}\n")
	}
	return b.String()
}

func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// fixture is a Reloader over one config file, and a client of it.
type fixture struct {
	path    string
	r       *Reloader
	ps      *pools
	metrics *observe.Metrics
	cs      *mcp.ClientSession
	events  chan string // list_changed notifications and log messages the client got
}

func newFixture(t *testing.T, text string) *fixture {
	t.Helper()
	f := &fixture{path: filepath.Join(t.TempDir(), "mcpgen.yaml"), ps: &pools{gate: make(chan struct{})},
		metrics: observe.NewMetrics(), events: make(chan string, 100)}
	write(t, f.path, text)
	var ds load.Diagnostics
	f.r, ds = Start(Options{Paths: []string{f.path}, Metrics: f.metrics,
		Build: runtime.BuildOptions{Registry: poolRegistry(f.ps), Observer: &observe.Observer{Metrics: f.metrics}}}, false)
	if f.r == nil {
		t.Fatal(ds)
	}
	t.Cleanup(func() { f.r.Close() })
	f.cs = f.client(t, "")
	return f
}

// client connects a client (2025-11-25) that records what it is told.
func (f *fixture) client(t *testing.T, version string) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := f.r.Server().MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	send := func(s string) {
		select {
		case f.events <- s:
		default:
		}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler:   func(context.Context, *mcp.ToolListChangedRequest) { send("tools") },
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { send("prompts") },
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			send("log: " + r.Params.Data.(string))
		}})
	cs, err := c.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if version != "" {
		return cs
	}
	if err := cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	return cs
}

func write(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// next waits for the next thing the client was told.
func (f *fixture) next(t *testing.T) string {
	t.Helper()
	select {
	case e := <-f.events:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("the client was told nothing")
		return ""
	}
}

func (f *fixture) tools(t *testing.T) []string {
	t.Helper()
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func (f *fixture) call(t *testing.T, name string) string {
	t.Helper()
	res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestReloadTellsClients: a good config replaces the old one; the session
// stays, is told tools/list_changed, and lists the new tools; a reload that
// changes no tool tells nothing.
func TestReloadTellsClients(t *testing.T) {
	f := newFixture(t, config("one", "a"))
	write(t, f.path, config("one", "a", "b"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	if e := f.next(t); e != "tools" {
		t.Fatalf("told %q, want tools", e)
	}
	if got := f.tools(t); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("tools after reload: %v", got)
	}
	if got := f.call(t, "b"); got != "pool one" {
		t.Errorf("call b: %q", got)
	}
	f.r.Reload(context.Background()) // nothing changed
	select {
	case e := <-f.events:
		t.Errorf("told %q after a reload that changed nothing", e)
	case <-time.After(100 * time.Millisecond): // the SDK sends list_changed after 10 ms
	}
	if got := reloads(t, f.metrics, "ok"); got != 2 {
		t.Errorf("mcpgen_reloads_total{outcome=ok} = %v, want 2", got)
	}
}

// TestReloadWithToolSearch: the dev page's switch turns tool search on and
// off for the run, whatever the config says, and clients are told the
// list changed each time; the options last for later reloads.
func TestReloadWithToolSearch(t *testing.T) {
	f := newFixture(t, config("one", "a", "b"))
	search := []string{"search_tools", "describe_tools", "call_tool"}
	for _, tt := range []struct {
		name   string
		change func(*runtime.BuildOptions)
		config string
		want   []string
	}{
		{"on", func(bo *runtime.BuildOptions) { bo.ToolSearch, bo.NoToolSearch = true, false }, "", search},
		{"stays on for a later reload", nil, config("one", "a", "b", "c"), search},
		{"off", func(bo *runtime.BuildOptions) { bo.ToolSearch, bo.NoToolSearch = false, true }, "", []string{"a", "b", "c"}},
		{"off even when the config turns it on", nil,
			strings.Replace(config("one", "a", "b", "c"), "tools:", "server: {tool_search: {enabled: true}}\ntools:", 1), []string{"a", "b", "c"}},
		{"as the config says", func(bo *runtime.BuildOptions) { bo.ToolSearch, bo.NoToolSearch = false, false }, "", search},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ok bool
			if tt.config != "" {
				write(t, f.path, tt.config)
			}
			if tt.change != nil {
				ok = f.r.ReloadWith(context.Background(), tt.change)
			} else {
				ok = f.r.Reload(context.Background())
			}
			if !ok {
				t.Fatal(f.r.Diagnostics())
			}
			if got := f.tools(t); !slices.Equal(got, tt.want) {
				t.Errorf("tools: %v, want %v", got, tt.want)
			}
			if tt.name != "off even when the config turns it on" { // the list stays the same there
				if e := f.next(t); e != "tools" {
					t.Errorf("told %q, want tools", e)
				}
			}
			for len(f.events) > 0 {
				<-f.events
			}
		})
	}
}

// reloads reads mcpgen_reloads_total for outcome.
func reloads(t *testing.T, m *observe.Metrics, outcome string) float64 {
	t.Helper()
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "mcpgen_reloads_total" {
			continue
		}
		for _, mt := range mf.GetMetric() {
			if mt.GetLabel()[0].GetValue() == outcome {
				return mt.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// TestReloadBrokenKeepsServing: a config with errors is reported to the
// clients that asked for logs, with file:line:col, and the last good one
// keeps serving; fixing it serves the fix.
func TestReloadBrokenKeepsServing(t *testing.T) {
	f := newFixture(t, config("one", "a"))
	write(t, f.path, config("one", "a")+"  - {name: b, descripton: d, handler: {backend: db}}\n")
	if f.r.Reload(context.Background()) {
		t.Fatal("a broken config was served")
	}
	e := f.next(t)
	if !strings.Contains(e, "reload failed") || !strings.Contains(e, "mcpgen.yaml:6:") || !strings.Contains(e, `did you mean "description"`) {
		t.Errorf("told %q", e)
	}
	if got := f.call(t, "a"); got != "pool one" {
		t.Errorf("call a after a failed reload: %q", got)
	}
	if got := reloads(t, f.metrics, "error"); got != 1 {
		t.Errorf("mcpgen_reloads_total{outcome=error} = %v, want 1", got)
	}
	write(t, f.path, "version: 1\ntools: [\n") // half-written
	if f.r.Reload(context.Background()) {
		t.Fatal("a half-written config was served")
	}
	write(t, f.path, config("one", "a", "b"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	if got := f.tools(t); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("tools after the fix: %v", got)
	}
}

// TestReloadCarriesBackends: a backend whose settings did not change is
// taken over, open; one whose settings changed is closed, but only after
// the last call running on it.
func TestReloadCarriesBackends(t *testing.T) {
	f := newFixture(t, config("one", "a", "slow:true"))
	write(t, f.path, config("one", "a", "slow:true", "c")) // db unchanged
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	if ps := f.ps.all(); len(ps) != 1 || ps[0].closed.Load() {
		t.Fatalf("the unchanged backend was opened again or closed: %d opened", len(ps))
	}
	// A call in flight, then a reload that changes the backend.
	done := make(chan string, 1)
	go func() {
		res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow"})
		if err != nil {
			done <- err.Error()
			return
		}
		done <- res.Content[0].(*mcp.TextContent).Text
	}()
	waitFor(t, func() bool { return f.r.live.InFlight() > 0 })
	write(t, f.path, config("two", "a"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	ps := f.ps.all()
	if len(ps) != 2 || ps[0].closed.Load() {
		t.Fatalf("the old backend was closed under a call (or not replaced): %d opened", len(ps))
	}
	if got := f.call(t, "a"); got != "pool two" {
		t.Errorf("a new call ran on %q, want pool two", got)
	}
	close(f.ps.gate)
	if got := <-done; got != "pool one" {
		t.Errorf("the call in flight ended with %q, want pool one", got)
	}
	waitFor(t, func() bool { return ps[0].closed.Load() })
	if ps[1].closed.Load() {
		t.Error("the new backend is closed")
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestReloadTellsListeners: a 2026-07-28 client hears of changed tools
// and prompts through subscriptions/listen, which it opens because
// listChanged is declared.
func TestReloadTellsListeners(t *testing.T) {
	prompts := "prompts:\n  - {name: p, description: d, messages: [{role: user, text: hi}]}\n"
	f := newFixture(t, config("one", "a")+prompts)
	cs := f.client(t, "2026-07-28")
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
		t.Fatalf("tools capability: %+v", caps.Tools)
	}
	write(t, f.path, config("one", "a", "b")+strings.ReplaceAll(prompts, "name: p", "name: q"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	got := map[string]int{}
	for range 4 { // the session client and the 2026 one, told of tools and prompts each
		got[f.next(t)]++
	}
	if got["tools"] != 2 || got["prompts"] != 2 {
		t.Errorf("told %v, want tools and prompts twice each", got)
	}
}

// TestReloadProbesCurrentBackends: /readyz probes, made once when serving
// starts, check the backend of the config being served, not the one a
// reload closed.
func TestReloadProbesCurrentBackends(t *testing.T) {
	withReadiness := func(label string) string {
		return strings.Replace(config(label, "a"), "label: "+label+"}", "label: "+label+", readiness: {required: true}}", 1)
	}
	f := newFixture(t, withReadiness("one"))
	probes := f.r.Server().Probes()
	if len(probes) != 1 {
		t.Fatalf("%d probes", len(probes))
	}
	write(t, f.path, withReadiness("two"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	waitFor(t, func() bool { return f.ps.all()[0].closed.Load() })
	if err := probes[0].Check(context.Background()); err != nil {
		t.Errorf("the probe checked the closed backend: %v", err)
	}
}

// TestReloadListenDoesNotPinOld: a 2026-07-28 client's subscriptions/listen
// stream, open for as long as the client stays, does not keep the old
// config, and its backends, open after a reload.
func TestReloadListenDoesNotPinOld(t *testing.T) {
	f := newFixture(t, config("one", "a"))
	f.client(t, "2026-07-28")
	write(t, f.path, config("two", "a"))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	waitFor(t, func() bool { return f.ps.all()[0].closed.Load() })
}

// TestStartBroken: `mcpgen dev` starts on a broken config, serving no
// tools and keeping its errors, and serves the config once it is fixed;
// `mcpgen serve` does not start.
func TestStartBroken(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	write(t, path, "version: 1\ntools: [\n")
	ps := &pools{}
	opts := Options{Paths: []string{path}, Build: runtime.BuildOptions{Registry: poolRegistry(ps)}}
	if r, ds := Start(opts, false); r != nil || ds.Errors() == 0 {
		t.Fatalf("a broken config started: %v", ds)
	}
	r, ds := Start(opts, true)
	if r == nil || ds.Errors() == 0 || r.Diagnostics().Errors() == 0 {
		t.Fatalf("reloader %v, diagnostics %v", r, ds)
	}
	defer r.Close()
	if n := len(r.Server().ToolNames()); n != 0 {
		t.Errorf("%d tools served from a broken config", n)
	}
	write(t, path, config("one", "a"))
	if !r.Reload(context.Background()) {
		t.Fatal(r.Diagnostics())
	}
	if got := r.live.Current().ToolNames(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("tools after the fix: %v", got)
	}
}

// TestReloadKeepsResultPages: the pages of a long result given before a
// reload can still be read after it.
func TestReloadKeepsResultPages(t *testing.T) {
	long := strings.Repeat("x", 400)
	paged := func(extra string) string {
		return strings.Replace(config(long, "a"), "description: d,", "description: d, max_result: 300, overflow: pages,", 1) + extra
	}
	f := newFixture(t, paged(""))
	res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "a"})
	if err != nil {
		t.Fatal(err)
	}
	link, ok := res.Content[len(res.Content)-1].(*mcp.ResourceLink)
	if !ok {
		t.Fatalf("no link to the next page: %#v", res.Content)
	}
	write(t, f.path, strings.Replace(paged(""), "name: a,", "name: b,", 1))
	if !f.r.Reload(context.Background()) {
		t.Fatal(f.r.Diagnostics())
	}
	rr, err := f.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "xxx") {
		t.Fatalf("reading %s after the reload: %v", link.URI, err)
	}
}
