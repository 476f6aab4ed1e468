package transport_test

import (
	"context"
	"fmt"
	"net/http"
	goruntime "runtime"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestHTTPManySessions runs 200 sessions of 50 calls each at once, then
// checks that every goroutine they needed is gone once they close. It does
// not run in parallel with other tests, so that the goroutine count is its own.
func TestHTTPManySessions(t *testing.T) {
	sessions, calls := 200, 50
	if testing.Short() {
		sessions, calls = 20, 10
	}
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{MaxSessions: sessions,
		MaxSessionsPerClient: sessions}) // every session comes from loopback
	tr := &http.Transport{MaxIdleConnsPerHost: 2 * sessions}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	before := goruntime.NumGoroutine()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	errs := make(chan error, sessions)
	var wg sync.WaitGroup
	for s := range sessions {
		wg.Go(func() { errs <- runSession(ctx, hc, base, s, calls) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	tr.CloseIdleConnections()
	waitFor(t, "goroutines to wind down", func() bool {
		tr.CloseIdleConnections()
		return goruntime.NumGoroutine() <= before+5
	})
}

func runSession(ctx context.Context, hc *http.Client, base string, s, calls int) error {
	c := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + transport.MCPPath, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return fmt.Errorf("session %d: connecting: %w", s, err)
	}
	defer cs.Close()
	for i := range calls {
		want := fmt.Sprintf("echo %d-%d", s, i)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": fmt.Sprintf("%d-%d", s, i)}})
		if err != nil {
			return fmt.Errorf("session %d call %d: %w", s, i, err)
		}
		if got := runtime.ResultText(res); got != want || res.IsError {
			return fmt.Errorf("session %d call %d: got %q, want %q", s, i, got, want)
		}
	}
	return nil
}
