// Package observe is what mcpgen shows operators about the calls it
// serves: Prometheus metrics, OpenTelemetry traces and the record of the
// call in flight that both are taken from, and readiness. Label values
// come from the config only (tool and backend names, MCP methods); a name
// the config does not have is counted as "_other", so a client cannot grow
// the number of series.
package observe

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Other is the label value of every name the config does not define.
const Other = "_other"

// methods are the MCP methods counted by name; others count as Other.
var methods = map[string]bool{}

func init() {
	for _, m := range []string{"initialize", "ping", "tools/list", "tools/call", "resources/list",
		"resources/templates/list", "resources/read", "resources/subscribe", "resources/unsubscribe",
		"prompts/list", "prompts/get", "completion/complete", "logging/setLevel", "server/discover",
		"subscriptions/listen", "tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list",
		"skills/list", "skills/get", "resources/directory/read"} {
		methods[m] = true
	}
}

// Metrics are mcpgen's Prometheus collectors, in a registry of their own.
// A nil *Metrics records nothing.
type Metrics struct {
	reg      *prometheus.Registry
	known    atomic.Pointer[names]
	requests *prometheus.CounterVec
	calls    *prometheus.CounterVec
	callTime *prometheus.HistogramVec
	backend  *prometheus.CounterVec
	backTime *prometheus.HistogramVec
	inFlight prometheus.Gauge
	reloads  *prometheus.CounterVec
	limited  *prometheus.CounterVec
	busy     *prometheus.CounterVec
	cache    *prometheus.CounterVec
	panics   *prometheus.CounterVec

	// series hold the counter and histogram of each label set of a tool
	// call ([2]string{tool, outcome}) and of a backend request
	// ([3]string{backend, kind, outcome}) once used: every call counts
	// twice, and finding a series by its labels hashes them under a lock.
	toolSeries, backendSeries sync.Map

	// runtime registers the Go runtime and process collectors on the first
	// scrape: making the Go collector reads every runtime metric's
	// description, which a start that is never scraped (stdio) need not pay.
	runtime sync.Once
}

// seriesPair is a counter and a histogram of one label set.
type seriesPair struct {
	count prometheus.Counter
	time  prometheus.Observer
}

// record counts one event that took d.
func (s *seriesPair) record(d time.Duration) {
	s.count.Inc()
	s.time.Observe(d.Seconds())
}

// names are the tool and backend names of the config being served.
type names struct{ tools, backends map[string]bool }

// NewMetrics returns the collectors, in a new registry that gains the Go
// runtime and process collectors when Handler first serves it.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.known.Store(&names{})
	m.requests = m.counter("mcpgen_requests_total", "MCP requests answered, by method and outcome (ok, error).", "method", "outcome")
	m.calls = m.counter("mcpgen_tool_calls_total", "Tool calls, by tool and outcome (ok; error: a tool error; failed: a protocol error such as an unknown tool; refused: by a rate or concurrency limit; cached: answered from the cache).", "tool", "outcome")
	m.callTime = m.histogram("mcpgen_tool_call_duration_seconds", "How long tool calls took, by tool and outcome.", "tool", "outcome")
	m.backend = m.counter("mcpgen_backend_requests_total", "Requests to backends, by backend, kind and outcome (HTTP: 2xx..5xx or error; SQL: ok, error, timeout, unavailable; shell: ok, exit, signal, timeout, error).", "backend", "kind", "outcome")
	m.backTime = m.histogram("mcpgen_backend_request_duration_seconds", "How long requests to backends took, by backend and kind.", "backend", "kind")
	m.inFlight = prometheus.NewGauge(prometheus.GaugeOpts{Name: "mcpgen_calls_in_flight", Help: "MCP requests being handled."})
	m.reloads = m.counter("mcpgen_reloads_total", "Config reloads, by outcome (ok, error).", "outcome")
	m.limited = m.counter("mcpgen_rate_limited_total", "Tool calls refused by a rate limit, by tool and scope (per_caller, global).", "tool", "scope")
	m.busy = m.counter("mcpgen_concurrency_refused_total", "Tool calls refused after waiting for a concurrency slot, by limit (tool, backend) and name.", "limit", "name")
	m.cache = m.counter("mcpgen_cache_requests_total", "Lookups of cached tool results, by tool and result (hit, miss).", "tool", "result")
	m.panics = m.counter("mcpgen_panics_total", "Requests whose handling panicked (a bug, answered as an internal error), by method; tasks count as the method that started them.", "method")
	m.reg.MustRegister(m.inFlight)
	return m
}

func (m *Metrics) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	m.reg.MustRegister(c)
	return c
}

func (m *Metrics) histogram(name, help string, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help,
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}}, labels)
	m.reg.MustRegister(h)
	return h
}

// Registry returns the registry, for collectors of the transport (sessions).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus text format, with the Go
// runtime's and the process's.
func (m *Metrics) Handler() http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.runtime.Do(func() {
			m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		})
		h.ServeHTTP(w, r)
	})
}

// Known sets the tool and backend names of the config being served: only
// these become label values.
func (m *Metrics) Known(tools, backends []string) {
	if m == nil {
		return
	}
	n := &names{tools: map[string]bool{}, backends: map[string]bool{}}
	for _, t := range tools {
		n.tools[t] = true
	}
	for _, b := range backends {
		n.backends[b] = true
	}
	m.known.Store(n)
}

func (m *Metrics) tool(name string) string {
	if m.known.Load().tools[name] {
		return name
	}
	return Other
}

func (m *Metrics) backendName(name string) string {
	if m.known.Load().backends[name] {
		return name
	}
	return Other
}

// Method returns the label value of an MCP method.
func Method(method string) string {
	if methods[method] {
		return method
	}
	return Other
}

// Request counts one MCP request.
func (m *Metrics) Request(method, outcome string) {
	if m != nil {
		m.requests.WithLabelValues(Method(method), outcome).Inc()
	}
}

// Panic counts one request whose handling panicked.
func (m *Metrics) Panic(method string) {
	if m != nil {
		m.panics.WithLabelValues(Method(method)).Inc()
	}
}

// ToolCall counts one tool call and how long it took.
func (m *Metrics) ToolCall(tool, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	key := [2]string{m.tool(tool), outcome}
	s, ok := m.toolSeries.Load(key)
	if !ok {
		s, _ = m.toolSeries.LoadOrStore(key, &seriesPair{m.calls.WithLabelValues(key[:]...), m.callTime.WithLabelValues(key[:]...)})
	}
	s.(*seriesPair).record(d)
}

// BackendRequest counts one request to a backend.
func (m *Metrics) BackendRequest(backend, kind, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	key := [3]string{m.backendName(backend), kindLabel(kind), outcome}
	s, ok := m.backendSeries.Load(key)
	if !ok {
		s, _ = m.backendSeries.LoadOrStore(key, &seriesPair{m.backend.WithLabelValues(key[:]...), m.backTime.WithLabelValues(key[:2]...)})
	}
	s.(*seriesPair).record(d)
}

// kindLabel bounds the kind label to the built-in kinds.
func kindLabel(kind string) string {
	switch kind {
	case KindHTTP, KindSQL, KindShell:
		return kind
	}
	return Other
}

// InFlight adds delta to the requests being handled.
func (m *Metrics) InFlight(delta float64) {
	if m != nil {
		m.inFlight.Add(delta)
	}
}

// Reload counts one reload of the config (outcome ok or error).
func (m *Metrics) Reload(outcome string) {
	if m != nil {
		m.reloads.WithLabelValues(outcome).Inc()
	}
}

// RateLimited counts a call refused by a rate limit of scope per_caller
// or global.
func (m *Metrics) RateLimited(tool, scope string) {
	if m != nil {
		m.limited.WithLabelValues(m.tool(tool), scope).Inc()
	}
}

// Busy counts a call refused at a concurrency limit (limit is tool or
// backend).
func (m *Metrics) Busy(limit, name string) {
	if m == nil {
		return
	}
	if limit == "tool" {
		name = m.tool(name)
	} else {
		name = m.backendName(name)
	}
	m.busy.WithLabelValues(limit, name).Inc()
}

// Cache counts a lookup in the result cache (result hit or miss).
func (m *Metrics) Cache(tool, result string) {
	if m != nil {
		m.cache.WithLabelValues(m.tool(tool), result).Inc()
	}
}
