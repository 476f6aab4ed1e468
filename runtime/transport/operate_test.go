package transport_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// observed builds config with metrics, traces into an in-memory exporter
// and a JSON log, and serves it over HTTP.
func observed(t *testing.T, config string, env map[string]string) (url string, obs *observe.Observer, spans *tracetest.InMemoryExporter, logs *syncBuf) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	writeFile(t, path, config)
	spans = tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	obs = &observe.Observer{Metrics: observe.NewMetrics(), Tracer: observe.Tracer(tp)}
	logs = &syncBuf{}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	srv, ds := runtime.Compile([]string{path}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: builtin.Registry(),
		Observer: obs, Logger: slogJSON(logs)})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	h := transport.NewHTTPHandler(srv, transport.HTTPOptions{})
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL, obs, spans, logs
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// logLines decodes the JSON log lines whose msg is msg.
func logLines(t *testing.T, logs string, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

const traceParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

// TestObservedCalls: a call through HTTP to an HTTP backend is counted by
// tool and by backend (with the status class), traced as a child of the
// client's traceparent (in _meta) with a child span for the backend
// request whose traceparent the backend receives, and logged in one JSON
// line with the backend's status and the error masked.
func TestObservedCalls(t *testing.T) {
	var mu sync.Mutex
	var seen []string // traceparent headers the API received
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Traceparent"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `{"error": "down, key s3cr3t-v4lue"}`)
			return
		}
		_, _ = io.WriteString(w, `{"ok": true}`)
	}))
	defer api.Close()
	url, obs, spans, logs := observed(t, `version: 1
backends:
  api:
    kind: http
    base_url: `+api.URL+`
    headers: {X-Key: "${API_KEY}"}
    retries: {max: 0}
tools:
  - {name: good, description: d, handler: {backend: api, path: /ok}}
  - {name: bad, description: d, handler: {backend: api, path: /fail}}
`, map[string]string{"API_KEY": "s3cr3t-v4lue"})
	cs := connect(t, url, nil)
	ctx := testCtx(t)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "good", Meta: mcp.Meta{"traceparent": traceParent}})
	if err != nil || res.IsError {
		t.Fatalf("good: %v %v", err, res)
	}
	if res := callTool(t, ctx, cs, "bad", nil); !res.IsError {
		t.Fatal("bad did not fail")
	}

	// traces
	var request, backend sdktrace.ReadOnlySpan
	for _, s := range spans.GetSpans().Snapshots() {
		switch s.Name() {
		case "tools/call good":
			request = s
		case "http api":
			if backend == nil {
				backend = s
			}
		}
	}
	if request == nil || backend == nil {
		t.Fatalf("spans: %v", spans.GetSpans())
	}
	if got := request.SpanContext().TraceID().String(); got != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("request span's trace %s: the client's traceparent was not continued", got)
	}
	if backend.Parent().SpanID() != request.SpanContext().SpanID() {
		t.Errorf("backend span's parent %s, want the request span %s", backend.Parent().SpanID(), request.SpanContext().SpanID())
	}
	mu.Lock()
	first := seen[0]
	mu.Unlock()
	if !strings.Contains(first, "0af7651916cd43dd8448eb211c80319c-"+backend.SpanContext().SpanID().String()) {
		t.Errorf("the backend received traceparent %q, want the backend span's", first)
	}
	attrs := map[string]string{}
	for _, a := range backend.Attributes() {
		attrs[string(a.Key)] = a.Value.Emit()
	}
	if attrs["http.request.method"] != "GET" || attrs["http.response.status_code"] != "200" || attrs["url.full"] != api.URL+"/ok" {
		t.Errorf("backend span attributes: %v", attrs)
	}

	// metrics
	_, text := get(t, url+transport.MetricsPath)
	for _, want := range []string{
		`mcpgen_tool_calls_total{outcome="ok",tool="good"} 1`,
		`mcpgen_tool_calls_total{outcome="error",tool="bad"} 1`,
		`mcpgen_backend_requests_total{backend="api",kind="http",outcome="2xx"} 1`,
		`mcpgen_backend_requests_total{backend="api",kind="http",outcome="5xx"} 1`,
		`mcpgen_requests_total{method="tools/call",outcome="ok"} 2`,
		`mcpgen_sessions 1`,
		`mcpgen_tool_call_duration_seconds_count{outcome="ok",tool="good"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	_ = obs

	// one log line per call, masked
	lines := logLines(t, logs.String(), "call")
	if len(lines) != 2 {
		t.Fatalf("%d call lines, want 2:\n%s", len(lines), logs)
	}
	bad := lines[1]
	if bad["tool"] != "bad" || bad["outcome"] != "error" || bad["backend_status"] != "503" || bad["duration"] == nil {
		t.Errorf("log line of bad: %v", bad)
	}
	if lines[0]["trace_id"] != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("log line of good has trace_id %v", lines[0]["trace_id"])
	}
	if strings.Contains(logs.String(), "s3cr3t-v4lue") {
		t.Errorf("a secret reached the log:\n%s", logs)
	}
}

// TestMetricsCardinalityIsBounded: names a client makes up (unknown tools,
// with hostile text) never become label values; they are all counted as
// _other.
func TestMetricsCardinalityIsBounded(t *testing.T) {
	url, _, _, _ := observed(t, `version: 1
tools:
  - {name: known, description: d, content: [{text: ok}]}
`, nil)
	cs := connect(t, url, nil)
	ctx := testCtx(t)
	hostile := []string{"evil\"} 1\nmcpgen_fake 1", "../../etc/passwd", strings.Repeat("x", 10000), "known ", "ＫＮＯＷＮ", "\x00"}
	for i := range 200 {
		hostile = append(hostile, "tool-"+strings.Repeat("y", i%7)+string(rune('a'+i%26))+string(rune('0'+i%10)))
	}
	for _, name := range hostile {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"secret": name}}); err == nil {
			t.Fatalf("calling %q succeeded", name)
		}
	}
	callTool(t, ctx, cs, "known", nil)
	_, text := get(t, url+transport.MetricsPath)
	var series []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "mcpgen_tool_calls_total{") {
			series = append(series, line)
		}
	}
	want := []string{`mcpgen_tool_calls_total{outcome="failed",tool="_other"} ` + strconv.Itoa(len(hostile)),
		`mcpgen_tool_calls_total{outcome="ok",tool="known"} 1`}
	if strings.Join(series, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool call series:\n%s\nwant:\n%s", strings.Join(series, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []string{"evil", "passwd", "xxxxxxxx", "yyy", "mcpgen_fake", "secret"} {
		if strings.Contains(text, bad) {
			t.Errorf("metrics hold a name the client made up: %q", bad)
		}
	}
}

// TestReadinessWithAHangingBackend: a required backend that never answers
// keeps /readyz at 503 (with the reason) without blocking it, while
// /healthz, /metrics and the other tools answer at once; a backend that
// answers makes it ready.
func TestReadinessWithAHangingBackend(t *testing.T) {
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }))
	defer up.Close()
	url, _, _, _ := observed(t, `version: 1
backends:
  slow:
    kind: http
    base_url: `+hang.URL+`
    readiness: {required: true, probe_interval: 50ms, timeout: 100ms}
  api:
    kind: http
    base_url: `+up.URL+`
    readiness: {probe_interval: 50ms}
tools:
  - {name: hangs, description: d, handler: {backend: slow, path: /x, timeout: 10s}}
  - {name: quick, description: d, content: [{text: ok}]}
`, nil)
	cs := connect(t, url, nil)
	ctx := testCtx(t)
	go func() { _, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "hangs"}) }()
	for _, path := range []string{transport.HealthzPath, transport.MetricsPath, transport.ReadyzPath} {
		start := time.Now()
		code, body := get(t, url+path)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %v", path, d)
		}
		want := http.StatusOK
		if path == transport.ReadyzPath {
			want = http.StatusServiceUnavailable
		}
		if code != want {
			t.Errorf("%s = %d %s, want %d", path, code, body, want)
		}
	}
	if res := callTool(t, ctx, cs, "quick", nil); res.IsError {
		t.Errorf("another tool failed while a backend hangs: %v", res)
	}
	var st observe.Status
	waitFor(t, "both backends checked", func() bool {
		_, body := get(t, url+transport.ReadyzPath)
		_ = json.Unmarshal([]byte(body), &st)
		return st.Backends["slow"] != nil && !st.Backends["slow"].Checked.IsZero() && st.Backends["api"] != nil && st.Backends["api"].OK
	})
	if st.Ready || !strings.Contains(st.Backends["slow"].Error, "deadline") {
		t.Errorf("readyz: %+v", st.Backends["slow"])
	}
}

func slogJSON(w io.Writer) *slog.Logger { return slog.New(slog.NewJSONHandler(w, nil)) }
