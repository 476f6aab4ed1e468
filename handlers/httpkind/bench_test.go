package httpkind_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// ticketJSON is a typical small API reply.
const ticketJSON = `{"id":"T-42","title":"Printer on fire","status":"open","priority":2,"labels":["hardware","urgent"],` +
	`"assignee":{"id":7,"name":"Ann"},"created":"2026-11-21T10:00:00Z","comments":3}`

// countingServer answers ticketJSON and counts new TCP connections.
func countingServer(t testing.TB) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, ticketJSON)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

const benchTool = "  - name: t\n    description: get a ticket\n    args:\n      - {name: id, required: true}\n" +
	"    handler:\n      backend: api\n      path: /tickets/${{ args.id }}\n"

func TestConnectionsAreReused(t *testing.T) {
	t.Parallel()
	srv, conns := countingServer(t)
	s := build(t, withBackend(srv.URL, "auth: {bearer: tok-123456}\n", benchTool))
	mustSucceed(t, call(t, s, "t", `{"id": "T-42"}`))
	warm := conns.Load()
	for range 50 {
		mustSucceed(t, call(t, s, "t", `{"id": "T-42"}`))
	}
	if n := conns.Load() - warm; n != 0 {
		t.Errorf("%d new TCP connections for 50 calls after the first; want 0", n)
	}
}

// BenchmarkToolVsPlainClient interleaves a tool call (argument validation,
// request building, response parsing and rendering, in-process) with a
// plain net/http GET of the same URL, and reports their ratio.
func BenchmarkToolVsPlainClient(b *testing.B) {
	srv, conns := countingServer(b)
	s := build(b, withBackend(srv.URL, "auth: {bearer: tok-123456}\n", benchTool))
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	ctx := context.Background()
	plain := func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/tickets/T-42", nil)
		req.Header.Set("Authorization", "Bearer tok-123456")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	args := []byte(`{"id": "T-42"}`)
	tool := func() {
		res, err := s.CallTool(ctx, "t", args, nil)
		if err != nil || res.IsError {
			b.Fatalf("call failed: %v %v", err, res)
		}
	}
	plain()
	tool()
	warm := conns.Load()
	var plainNs, toolNs time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		plain()
		t1 := time.Now()
		tool()
		toolNs += time.Since(t1)
		plainNs += t1.Sub(t0)
	}
	b.ReportMetric(float64(plainNs.Nanoseconds())/float64(b.N), "plain-ns/op")
	b.ReportMetric(float64(toolNs.Nanoseconds())/float64(b.N), "tool-ns/op")
	b.ReportMetric(float64(toolNs)/float64(plainNs), "ratio")
	b.ReportMetric(float64(conns.Load()-warm), "new-conns")
}
