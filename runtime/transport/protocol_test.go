package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestServeStdioBothEras: over stdio a 2026-07-28 request is served without
// initialize, server/discover lists every version served, and results
// carry resultType.
func TestServeStdioBothEras(t *testing.T) {
	t.Parallel()
	srv, _ := build(t, nil, stepsConfig, nil)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	in := strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"new"},` + meta + `}}`,
	}, "\n") + "\n")
	var out bytes.Buffer
	if err := transport.ServeStdio(context.Background(), srv, in, &out, transport.StdioOptions{}); err != nil {
		t.Fatal(err)
	}
	// replies come in the order they are ready, not the order asked:
	// match them by id
	var discover, call struct {
		ID     int `json:"id"`
		Result struct {
			SupportedVersions []string `json:"supportedVersions"`
			ResultType        string   `json:"resultType"`
		} `json:"result"`
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout:\n%s", out.String())
	}
	for _, l := range lines {
		var r struct {
			ID int `json:"id"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("stdout line %q: %v", l, err)
		}
		target := &discover
		if r.ID == 2 {
			target = &call
		}
		if err := json.Unmarshal([]byte(l), target); err != nil {
			t.Fatalf("stdout line %q: %v", l, err)
		}
	}
	if discover.ID != 1 || call.ID != 2 {
		t.Fatalf("replies' ids %d and %d, want 1 and 2:\n%s", discover.ID, call.ID, out.String())
	}
	if diff := cmp.Diff(mcp.SupportedProtocolVersions(), discover.Result.SupportedVersions); diff != "" {
		t.Errorf("discover's versions (-want +got):\n%s", diff)
	}
	if call.Result.ResultType != "complete" {
		t.Errorf("tools/call: resultType %q, want complete\n%s", call.Result.ResultType, out.String())
	}
}

// TestEscapedMetaKey: whether a call's params carry `_meta` is decided
// without decoding them only when they cannot: a `_meta` key written with
// an escape selects the 2026-07-28 protocol as a plain one does, and a
// call with no `_meta` at all (here before initialize) stays in the
// 2025-11-25 era, which refuses it.
func TestEscapedMetaKey(t *testing.T) {
	t.Parallel()
	srv, _ := build(t, nil, stepsConfig, nil)
	call := func(extra string) string {
		in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"new"}` + extra + "}}\n")
		var out bytes.Buffer
		if err := transport.ServeStdio(context.Background(), srv, in, &out, transport.StdioOptions{}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	escaped := call(`,"\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)
	var reply struct {
		Result struct {
			ResultType string `json:"resultType"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(escaped), &reply); err != nil || reply.Result.ResultType != "complete" {
		t.Errorf("an escaped _meta key: %v, want a 2026-07-28 result (resultType complete):\n%s", err, escaped)
	}
	if none := call(""); !strings.Contains(none, `"error"`) || !strings.Contains(none, "initialization") {
		t.Errorf("no _meta, no initialize: want the 2025-11-25 refusal, got:\n%s", none)
	}
}

// TestDiscoverOverHTTP: the default endpoint's server/discover lists the
// versions of both eras.
func TestDiscoverOverHTTP(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	_, r := modernCall(t, base, "server/discover", map[string]any{}, `{}`, nil)
	got, _ := json.Marshal(r["result"].(map[string]any)["supportedVersions"])
	want, _ := json.Marshal(mcp.SupportedProtocolVersions())
	if string(got) != string(want) {
		t.Errorf("supportedVersions %s, want %s", got, want)
	}
}

const cacheConfig = `
version: 1
server:
  cache_hint: {ttl: 1m}
tools:
  - {name: a, description: d, content: [{text: a}]}
  - {name: b, description: d, content: [{text: b}], cache_hint: {ttl: 10s}}
prompts:
  - {name: p, description: d, messages: [{text: p}], cache_hint: {ttl: 5m, scope: private}}
resources:
  - {uri: "test://fresh", name: fresh, text: f, cache_hint: {ttl: 2h}}
  - {uri: "test://plain", name: plain, text: p}
resource_templates:
  - {uri_template: "test://t/{id}", name: t, text: "{{ .args.id }}"}
`

// TestCachingHints: list and read results carry the configured ttlMs and
// cacheScope: a list the shortest TTL of its entries, private if any is.
func TestCachingHints(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, cacheConfig, nil, transport.HTTPOptions{})
	for _, tt := range []struct {
		method string
		params map[string]any
		ttl    float64
		scope  string
	}{
		{"server/discover", map[string]any{}, 60000, "public"},
		{"tools/list", map[string]any{}, 10000, "public"},
		{"prompts/list", map[string]any{}, 300000, "private"},
		{"resources/list", map[string]any{}, 60000, "public"},
		{"resources/templates/list", map[string]any{}, 60000, "public"},
		{"resources/read", map[string]any{"uri": "test://fresh"}, 7200000, "public"},
		{"resources/read", map[string]any{"uri": "test://plain"}, 60000, "public"},
	} {
		h := map[string]string{}
		if uri, ok := tt.params["uri"].(string); ok {
			h["Mcp-Name"] = uri
		}
		_, r := modernCall(t, base, tt.method, tt.params, `{}`, h)
		res, _ := r["result"].(map[string]any)
		if res["ttlMs"] != tt.ttl || res["cacheScope"] != tt.scope {
			t.Errorf("%s %v: ttlMs %v, cacheScope %v; want %v, %s", tt.method, tt.params, res["ttlMs"], res["cacheScope"], tt.ttl, tt.scope)
		}
	}
}

// TestStdioReadsWhileCallsRun: a tools/call on stdio is answered by the
// goroutine that read it, and another reads on once it has run for a
// moment, so a quick call is answered while a blocked one runs, and
// notifications/cancelled reaches the blocked one.
func TestStdioReadsWhileCallsRun(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	srv, _ := build(t, handlers.NewRegistry(p.kind()), blockConfig+`  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "echo {{ .args.text }}"}]
`, nil)
	c := startStdio(t, srv)
	released := false
	defer func() { // on failure too: let the server end
		if !released {
			close(p.release)
		}
		c.in.Close()
	}()
	send, next := c.send, c.next
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 2; i <= 3; i++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"block"}}`, i))
		select {
		case <-p.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("call %d did not start while another ran", i)
		}
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"while blocked"}}}`)
	if got := next(); !strings.Contains(got, `"id":4`) || !strings.Contains(got, "echo while blocked") {
		t.Fatalf("the quick call's answer: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	for deadline := time.Now().Add(10 * time.Second); p.canceled.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("call 2 was not canceled")
		}
	}
	close(p.release)
	released = true
	rest := c.end()
	var answered bool
	for _, l := range rest {
		answered = answered || strings.Contains(l, `"id":3`) && strings.Contains(l, "probe ran")
		if strings.Contains(l, `"id":2`) && strings.Contains(l, "probe ran") {
			t.Errorf("the canceled call ran to its end: %s", l)
		}
	}
	if !answered || p.canceled.Load() != 1 {
		t.Errorf("%d calls canceled, want 1; the rest of the output:\n%s", p.canceled.Load(), strings.Join(rest, "\n"))
	}
}

// TestStdioQuickCallsStartNoReader: the goroutine that answers a quick
// call reads the next one itself; a new reader starts only for a call
// that runs on (TestStdioReadsWhileCallsRun), not once per call, which
// woke a thread on the way to every answer.
func TestStdioQuickCallsStartNoReader(t *testing.T) {
	srv, _ := build(t, nil, stepsConfig, nil)
	c := startStdio(t, srv)
	defer c.in.Close() // on failure too: let the server end
	call := func(msg string) string {
		t.Helper()
		c.send(msg)
		return c.next()
	}
	call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const calls = 200
	slow := 0 // calls that may have run long enough for a new reader (under -race, on a busy machine)
	before := goroutinesCreated()
	for i := range calls {
		start := time.Now()
		if got := call(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, i+2)); !strings.Contains(got, "echo hi") {
			t.Fatalf("call %d: %s", i, got)
		}
		if time.Since(start) >= time.Millisecond {
			slow++
		}
	}
	if n := goroutinesCreated() - before; n > uint64(slow+calls/4) {
		t.Errorf("%d goroutines created by %d quick calls, one after the other (%d took 1 ms or more); want about one per slow call at most", n, calls, slow)
	}
	c.end()
}

// stdioClient talks to ServeStdio over pipes, a line at a time.
type stdioClient struct {
	t      *testing.T
	in     *os.File    // the server's input; writes do not wait for it to read
	out    chan string // the server's output lines
	served chan error  // what ServeStdio returned
}

// startStdio serves srv on stdio pipes until the client's input is closed.
func startStdio(t *testing.T, srv *runtime.Server) *stdioClient {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, out: make(chan string, 16), served: make(chan error, 1)}
	go func() {
		c.served <- transport.ServeStdio(context.Background(), srv, inR, outW, transport.StdioOptions{})
		outW.Close()
	}()
	go func() {
		defer close(c.out)
		for lines := bufio.NewScanner(outR); lines.Scan(); {
			c.out <- lines.Text()
		}
	}()
	return c
}

// send writes msg as one line of input.
func (c *stdioClient) send(msg string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, msg+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// next returns the next line of output, failing after 10 s without one.
func (c *stdioClient) next() string {
	c.t.Helper()
	select {
	case l, ok := <-c.out:
		if !ok {
			c.t.Fatal("no more output")
		}
		return l
	case <-time.After(10 * time.Second):
		c.t.Fatal("no answer in 10s")
	}
	return ""
}

// end closes the input and returns the rest of the output, once the
// server has ended without an error.
func (c *stdioClient) end() []string {
	c.t.Helper()
	c.in.Close()
	var rest []string
	for l := range c.out {
		rest = append(rest, l)
	}
	if err := <-c.served; err != nil {
		c.t.Fatal(err)
	}
	return rest
}

func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
