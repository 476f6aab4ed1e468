package shellkind_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStderrReachesTheClient: over MCP, each stderr line arrives as a
// notifications/message at level debug, logger the tool's name.
func TestStderrReachesTheClient(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, "command: [./fail.sh]"))
	ctx := context.Background()
	var mu sync.Mutex
	var got []string
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		//lint:ignore SA1019 logging is deprecated in protocol 2026-07-28 but still served; this tests it
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, string(req.Params.Level)+" "+req.Params.Logger+" "+req.Params.Data.(string))
		},
	})
	cs := handlertest.Connect(t, srv, client, nil)
	// clients of protocol 2026-07-28 give the level with each request
	//lint:ignore SA1019 see above
	meta := mcp.Meta{mcp.MetaKeyLogLevel: "debug"}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t", Arguments: map[string]any{}, Meta: meta})
	if err != nil || !res.IsError {
		t.Fatalf("want an error result, got %v, %v", res, err)
	}
	// The client handles notifications apart from responses, so the last
	// ones may be handled after the call returned: wait for them.
	for range 250 {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"debug t warming up", "debug t disk on fire"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log messages (-want +got):\n%s", diff)
	}
}

// TestProgressReachesTheClient: over MCP, a call with a progress token gets
// notifications/progress carrying the token, the numbers and the line.
func TestProgressReachesTheClient(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, `script: 'for i in 1 2 3; do echo "$i/3" >&2; done'
progress: {pattern: '(?P<done>\d+)/(?P<total>\d+)'}`))
	ctx := context.Background()
	var mu sync.Mutex
	var got []mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, mcp.ProgressNotificationParams{ProgressToken: req.Params.ProgressToken,
				Progress: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
		},
	})
	cs := handlertest.Connect(t, srv, client, nil)
	params := &mcp.CallToolParams{Name: "t", Arguments: map[string]any{}}
	params.SetProgressToken("tok")
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("call failed: %v, %v", res, err)
	}
	for range 250 { // notifications may be handled after the call returned
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []mcp.ProgressNotificationParams{
		{ProgressToken: "tok", Progress: 1, Total: 3, Message: "1/3"},
		{ProgressToken: "tok", Progress: 2, Total: 3, Message: "2/3"},
		{ProgressToken: "tok", Progress: 3, Total: 3, Message: "3/3"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}
