package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// serveExample serves examples/NAME/mcpgen.yaml over Streamable HTTP.
func serveExample(t *testing.T, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, ds := runtime.Compile([]string{"../../examples/" + name + "/mcpgen.yaml"}, load.Options{},
		runtime.BuildOptions{Registry: builtin.Registry()})
	if len(ds) > 0 {
		t.Fatalf("the %s example has diagnostics:\n%v", name, ds)
	}
	t.Cleanup(func() { srv.Close() })
	h := transport.NewHTTPHandler(srv, transport.HTTPOptions{})
	t.Cleanup(h.Close)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return connect(t, ts.URL, opts)
}

func TestConformanceExample(t *testing.T) {
	t.Parallel()
	var schema json.RawMessage
	cs := serveExample(t, "conformance", &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "hi"}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			schema, _ = json.Marshal(req.Params.RequestedSchema)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Jane"}}, nil
		},
	})
	ctx := testCtx(t)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"test_simple_text", nil, "This is a simple text response for testing."},
		{"test_sampling", map[string]any{"prompt": "p"}, "LLM response: hi"},
		{"test_elicitation_sep1034_defaults", nil,
			`Elicitation completed: action=accept, content={"age":30,"name":"Jane","score":95.5,"status":"active","verified":true}`},
	} {
		res := callTool(t, ctx, cs, tt.tool, tt.args)
		if got := runtime.ResultText(res); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.tool, got, tt.want)
		}
	}
	want := `{"properties":{"age":{"default":30,"description":"User age","type":"integer"},` +
		`"name":{"default":"John Doe","description":"User name","type":"string"},` +
		`"score":{"default":95.5,"description":"User score","type":"number"},` +
		`"status":{"default":"active","description":"User status","enum":["active","inactive","pending"],"type":"string"},` +
		`"verified":{"default":true,"description":"Verification status","type":"boolean"}},"required":[],"type":"object"}`
	var got bytes.Buffer
	_ = json.Compact(&got, schema)
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("requested schema, verbatim from YAML (-want +got):\n%s", diff)
	}
}

func TestServeStdioEndsOnEOF(t *testing.T) {
	t.Parallel()
	srv, _ := build(t, nil, stepsConfig, nil)
	in := strings.NewReader(initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`) // no final newline
	var out bytes.Buffer
	if err := transport.ServeStdio(context.Background(), srv, in, &out, transport.StdioOptions{}); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout line %q: %v", line, err)
		}
		ids = append(ids, jsonString(m["id"]))
	}
	if diff := cmp.Diff([]string{"0", "1"}, ids); diff != "" {
		t.Errorf("responses before exit (-want +got):\n%s\n%s", diff, out.String())
	}
}

func TestTeamExample(t *testing.T) {
	t.Parallel()
	var answer atomic.Pointer[mcp.ElicitResult]
	answer.Store(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"rating": "good", "comment": "smooth"}})
	cs := serveExample(t, "team", &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "Demo moved."}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return answer.Load(), nil },
	})
	ctx := testCtx(t)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"draft_announcement", map[string]any{"topic": "demo"}, "Demo moved."},
		{"cancel_meeting", map[string]any{"meeting": "standup"}, "'standup' is cancelled."},
		{"collect_feedback", nil, "Recorded: good (smooth)"},
	} {
		if got := runtime.ResultText(callTool(t, ctx, cs, tt.tool, tt.args)); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.tool, got, tt.want)
		}
	}
	answer.Store(&mcp.ElicitResult{Action: "decline"})
	if got := runtime.ResultText(callTool(t, ctx, cs, "collect_feedback", nil)); got != "No feedback given (decline)." {
		t.Errorf("declined feedback: got %q", got)
	}
	answer.Store(&mcp.ElicitResult{Action: "accept", Content: map[string]any{"detail": "full"}})
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "team://minutes/standup"})
	if err != nil || res.Contents[0].Text != "# standup\n\nEveryone spoke; nothing was decided." {
		t.Errorf("minutes: %v %v", res, err)
	}
}

// TestServeStdioStopsWhileInputWaits: canceling the context ends serving
// at once while the input is open and silent, whether it is a pipe (read
// in the go-sdk's reader, made non-blocking) or another reader (copied).
func TestServeStdioStopsWhileInputWaits(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"pipe", "reader"} {
		t.Run(kind, func(t *testing.T) {
			srv, _ := build(t, nil, stepsConfig, nil)
			var in io.Reader
			if kind == "pipe" {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				defer r.Close()
				in = r
			} else {
				r, w := io.Pipe()
				defer w.Close()
				in = r
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- transport.ServeStdio(ctx, srv, in, io.Discard, transport.StdioOptions{}) }()
			time.Sleep(50 * time.Millisecond) // reading, input silent
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("ServeStdio: %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("ServeStdio did not end while its input waited")
			}
		})
	}
}
