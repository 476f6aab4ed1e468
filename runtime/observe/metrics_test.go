package observe

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
)

// TestMetricsSeries: each call counts in the series of its labels, kept
// from one call to the next; a name the config does not have counts as
// Other; a backend's duration histogram gathers every outcome of its kind.
func TestMetricsSeries(t *testing.T) {
	m := NewMetrics()
	m.Known([]string{"search"}, []string{"db"})
	for range 3 {
		m.ToolCall("search", "ok", time.Millisecond)
	}
	m.ToolCall("search", "error", time.Millisecond)
	m.ToolCall("unknown", "ok", time.Millisecond)
	m.BackendRequest("db", KindSQL, "ok", time.Millisecond)
	m.BackendRequest("db", KindSQL, "timeout", time.Second)
	m.BackendRequest("db", "graphql", "ok", time.Millisecond)
	want := `
# HELP mcpgen_tool_calls_total Tool calls, by tool and outcome (ok; error: a tool error; failed: a protocol error such as an unknown tool; refused: by a rate or concurrency limit; cached: answered from the cache).
# TYPE mcpgen_tool_calls_total counter
mcpgen_tool_calls_total{outcome="error",tool="search"} 1
mcpgen_tool_calls_total{outcome="ok",tool="_other"} 1
mcpgen_tool_calls_total{outcome="ok",tool="search"} 3
# HELP mcpgen_backend_requests_total Requests to backends, by backend, kind and outcome (HTTP: 2xx..5xx or error; SQL: ok, error, timeout, unavailable; shell: ok, exit, signal, timeout, error).
# TYPE mcpgen_backend_requests_total counter
mcpgen_backend_requests_total{backend="db",kind="_other",outcome="ok"} 1
mcpgen_backend_requests_total{backend="db",kind="sql",outcome="ok"} 1
mcpgen_backend_requests_total{backend="db",kind="sql",outcome="timeout"} 1
`
	if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "mcpgen_tool_calls_total", "mcpgen_backend_requests_total"); err != nil {
		t.Error(err)
	}
	for kind, want := range map[string]uint64{KindSQL: 2, Other: 1} {
		var d dto.Metric
		if err := m.backTime.WithLabelValues("db", kind).(prometheus.Metric).Write(&d); err != nil {
			t.Fatal(err)
		}
		if got := d.GetHistogram().GetSampleCount(); got != want {
			t.Errorf("backend db, kind %s: %d durations, want %d", kind, got, want)
		}
	}
}

// TestMetricsRuntime: a scrape shows the Go runtime's and the process's
// metrics beside mcpgen's, on the first scrape and on those after it.
func TestMetricsRuntime(t *testing.T) {
	m := NewMetrics()
	m.ToolCall("search", "ok", time.Millisecond)
	h := m.Handler()
	for scrape := range 2 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body, _ := io.ReadAll(rec.Result().Body)
		if rec.Code != 200 {
			t.Fatalf("scrape %d: status %d: %s", scrape, rec.Code, body)
		}
		for _, name := range []string{"go_goroutines ", "go_memstats_heap_alloc_bytes ", "process_cpu_seconds_total ",
			"process_resident_memory_bytes ", `mcpgen_tool_calls_total{outcome="ok",tool="_other"} 1`} {
			if !strings.Contains(string(body), "\n"+name) {
				t.Errorf("scrape %d: no %s", scrape, name)
			}
		}
	}
}

// BenchmarkNewMetrics is what making the metrics costs every start.
func BenchmarkNewMetrics(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewMetrics()
	}
}

// BenchmarkMetricsPerCall is what a tool call backed by SQL records.
func BenchmarkMetricsPerCall(b *testing.B) {
	m := NewMetrics()
	m.Known([]string{"search_hotels_by_location"}, []string{"hotels"})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.BackendRequest("hotels", KindSQL, "ok", time.Millisecond)
			m.ToolCall("search_hotels_by_location", "ok", time.Millisecond)
		}
	})
}
