package transport_test

import (
	"bytes"
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestBackendQueue: a call beyond max_calls_per_backend waits for a slot
// and runs when one frees; beyond backend_queue waiting it is refused at
// once, and after backend_queue_wait it gives up; both refusals say when
// to retry.
func TestBackendQueue(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{Stateless: true,
		MaxCallsPerBackend: 1, BackendQueue: 1, BackendQueueWait: 5 * time.Second})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`
	answer := func() []byte {
		resp, err := rawRequestCtx(testCtx(t), base, call)
		if err != nil {
			t.Error(err)
			return nil
		}
		ps := payloads(t, resp)
		return ps[len(ps)-1]
	}
	var wg sync.WaitGroup
	results := make([][]byte, 2)
	wg.Go(func() { results[0] = answer() })
	<-p.started // the first runs
	wg.Go(func() { results[1] = answer() })
	time.Sleep(200 * time.Millisecond) // the second waits for the slot
	start := time.Now()
	if third := answer(); !bytes.Contains(third, []byte(`backend \"probe\" busy: 1 calls are running on it and 1 waiting`)) ||
		!bytes.Contains(third, []byte(`"retryAfterMs":5000`)) || time.Since(start) > time.Second {
		t.Errorf("a call beyond the queue: %s after %v; want refused at once, saying when to retry", third, time.Since(start))
	}
	close(p.release)
	wg.Wait()
	for i, r := range results {
		if !bytes.Contains(r, []byte("probe ran")) {
			t.Errorf("call %d: %s, want it run (the second after waiting)", i, r)
		}
	}
}

// TestBackendQueueWait: a call that waited backend_queue_wait without a
// slot is refused, saying so.
func TestBackendQueueWait(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	defer close(p.release)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{Stateless: true,
		MaxCallsPerBackend: 1, BackendQueueWait: 300 * time.Millisecond})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`
	go func() {
		if resp, err := rawRequestCtx(testCtx(t), base, call); err == nil {
			payloads(t, resp)
		}
	}()
	<-p.started
	start := time.Now()
	resp, err := rawRequestCtx(testCtx(t), base, call)
	if err != nil {
		t.Fatal(err)
	}
	ps := payloads(t, resp)
	if waited := time.Since(start); len(ps) != 1 || !bytes.Contains(ps[0], []byte("none ended within 300ms")) || waited < 300*time.Millisecond {
		t.Errorf("after %v: %q; want refused after waiting 300ms", waited, ps)
	}
}

// TestBackendBurstIsServed: 200 clients calling one SQLite tool at once,
// with the default 128 calls per backend, are all served: the calls beyond
// the cap wait for a slot (a generous wait here, for slow machines and the
// race detector, under which SQLite runs about fifty times slower).
// Refused at once, a quarter of them got "backend busy".
func TestBackendBurstIsServed(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, builtin.Registry(), `
version: 1
backends:
  lite: {kind: sql, driver: sqlite, dsn: "file:burst?mode=memory&cache=shared"}
tools:
  - name: one
    description: One row, after counting to 1,000 (a moment, so that calls overlap).
    handler: {backend: lite, query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000) SELECT count(*) AS n FROM c"}
`, nil, transport.HTTPOptions{Stateless: true, BackendQueueWait: time.Minute})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"one"}}`
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var busy, failed atomic.Int64
	for range 200 {
		wg.Go(func() {
			resp, err := rawRequestCtx(ctx, base, call)
			if err != nil {
				failed.Add(1)
				return
			}
			ps := payloads(t, resp)
			switch {
			case len(ps) == 0:
				failed.Add(1)
			case bytes.Contains(ps[len(ps)-1], []byte("busy")):
				busy.Add(1)
			case !bytes.Contains(ps[len(ps)-1], []byte(`"result"`)):
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if busy.Load() != 0 || failed.Load() != 0 {
		t.Errorf("of 200 concurrent calls, %d refused busy and %d failed; want all served", busy.Load(), failed.Load())
	}
}
