package gosdktest

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// The patch's third part runs a request on the goroutine that read it
// when the handler queue is empty, instead of starting one more for it; a
// request released by Async hands the queue to another goroutine only when
// more requests wait, and a handler that runs long has another goroutine
// read on. Calls still run concurrently.

type echoArgs struct {
	Wait bool `json:"wait"`
}

// connect serves a server with one tool, "echo", whose calls with wait
// block until release is closed, and returns a client session to it.
func connect(t *testing.T, release <-chan struct{}) *mcp.ClientSession {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		if in.Wait {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestNoGoroutinePerRequest: a quick call, one at a time, costs the server
// no goroutine (upstream starts two: the queue's and the request's).
func TestNoGoroutinePerRequest(t *testing.T) {
	cs := connect(t, nil)
	const calls = 100
	before := goroutinesCreated()
	for range calls {
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
	}
	if per := float64(goroutinesCreated()-before) / calls; per > 0.5 {
		t.Errorf("%.2f goroutines created per call; want none but for slow calls: is the handler queue part of gosdk.patch applied?", per)
	}
}

// TestCallsStillConcurrent: a call that blocks does not hold up the next.
func TestCallsStillConcurrent(t *testing.T) {
	release := make(chan struct{})
	cs := connect(t, release)
	blocked := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"wait": true}})
		blocked <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
		t.Fatalf("a call behind a blocked one: %v", err)
	}
	close(release)
	if err := <-blocked; err != nil {
		t.Fatal(err)
	}
}
