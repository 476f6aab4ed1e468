package transport_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const stepsConfig = `
version: 1
tools:
  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "echo {{ .args.text }}"}]
  - name: slow
    description: Sleeps, then answers.
    steps: [{sleep: 20ms}]
    content: [{text: done}]
  - name: logs
    description: Logs at three levels.
    steps:
      - log: {level: debug, message: "debug {{ .args.n }}"}
      - log: {level: info, message: info}
      - log: {level: warning, message: warning, logger: custom}
    args: [{name: n, type: integer, default: 1}]
    content: [{text: logged}]
  - name: progress
    description: Reports progress.
    steps:
      - progress: {progress: 10, total: 100, message: start}
      - sleep: 5ms
      - progress: {progress: 5, total: 100, message: backwards}
      - progress: {progress: 100, total: 100, message: "end"}
    content: [{text: progressed}]
  - name: ask_model
    description: Samples the client's model.
    args: [{name: topic, required: true}]
    steps:
      - sample: {prompt: "Write about {{ .args.topic }}", system: Be brief., max_tokens: 50, as: reply}
    content: [{text: "model {{ .steps.reply.model }} said: {{ .steps.reply.text }}"}]
  - name: ask_user
    description: Elicits a name.
    steps:
      - elicit:
          message: Who are you?
          schema:
            type: object
            properties:
              name: {type: string, default: anon}
          as: who
    content: [{text: "hello {{ .steps.who.content.name }} ({{ .steps.who.action }})"}]
  - name: ask_optional
    description: Elicits, and goes on when declined.
    steps:
      - elicit: {message: "Proceed?", as: ok, optional: true}
    content: [{text: "action={{ .steps.ok.action }}"}]
  - name: reconnect
    description: Closes its stream mid-call.
    steps:
      - log: {message: before}
      - close_stream: {retry: 5ms}
      - sleep: 100ms
      - log: {message: after}
    content: [{text: resumed}]
`

func TestHTTPConcurrentCallsOnOneSession(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	cs := connect(t, url, nil)
	ctx := testCtx(t)
	var wg sync.WaitGroup
	errs := make(chan string, 40)
	for i := range 40 {
		wg.Go(func() {
			name, args, want := "echo", map[string]any{"text": fmt.Sprint(i)}, fmt.Sprintf("echo %d", i)
			if i%2 == 1 {
				name, args, want = "slow", nil, "done"
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				errs <- err.Error()
				return
			}
			if got := runtime.ResultText(res); got != want {
				errs <- fmt.Sprintf("call %d: got %q, want %q", i, got, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestHTTPLoggingHonoursSetLevel(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	callTool(t, ctx, cs, "logs", nil) // no level set yet: nothing is sent
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, ctx, cs, "logs", map[string]any{"n": 7})
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	callTool(t, ctx, cs, "logs", nil)
	want := []*mcp.LoggingMessageParams{
		{Level: "debug", Logger: "logs", Data: "debug 7"},
		{Level: "info", Logger: "logs", Data: "info"},
		{Level: "warning", Logger: "custom", Data: "warning"},
		{Level: "warning", Logger: "custom", Data: "warning"},
	}
	waitFor(t, "4 log messages", func() bool { logs, _, _ := rec.snapshot(); return len(logs) >= 4 })
	logs, _, _ := rec.snapshot()
	if diff := cmp.Diff(want, logs); diff != "" {
		t.Errorf("log messages (-want +got):\n%s", diff)
	}
}

func TestHTTPProgressNonDecreasing(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	callTool(t, ctx, cs, "progress", nil) // no token: no progress
	params := &mcp.CallToolParams{Name: "progress"}
	params.SetProgressToken("tok-1")
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	// The client may dispatch notifications after the result; the order
	// on the wire is checked in TestHTTPRawProgressPrecedesResult.
	waitFor(t, "3 progress notifications", func() bool { _, p, _ := rec.snapshot(); return len(p) >= 3 })
	_, progress, _ := rec.snapshot()
	want := []*mcp.ProgressNotificationParams{
		{ProgressToken: "tok-1", Progress: 10, Total: 100, Message: "start"},
		{ProgressToken: "tok-1", Progress: 10, Total: 100, Message: "backwards"},
		{ProgressToken: "tok-1", Progress: 100, Total: 100, Message: "end"},
	}
	if diff := cmp.Diff(want, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

func TestHTTPSamplingAnsweredByClient(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	var got *mcp.CreateMessageParams
	cs := connect(t, url, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			got = req.Params
			return &mcp.CreateMessageResult{Model: "m1", Role: "assistant",
				Content: &mcp.TextContent{Text: "gophers are great"}}, nil
		},
	})
	res := callTool(t, testCtx(t), cs, "ask_model", map[string]any{"topic": "gophers"})
	if diff := cmp.Diff("model m1 said: gophers are great", runtime.ResultText(res)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	want := &mcp.CreateMessageParams{MaxTokens: 50, SystemPrompt: "Be brief.",
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Write about gophers"}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sampling request (-want +got):\n%s", diff)
	}
}

func TestHTTPElicitation(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, tool, action string
		content            map[string]any
		want               string
		isError            bool
	}{
		{name: "accepted", tool: "ask_user", action: "accept", content: map[string]any{"name": "Ada"}, want: "hello Ada (accept)"},
		{name: "defaults applied", tool: "ask_user", action: "accept", content: map[string]any{}, want: "hello anon (accept)"},
		{name: "declined", tool: "ask_user", action: "decline", isError: true,
			want: "the user declined the request for input: nothing was done"},
		{name: "canceled", tool: "ask_user", action: "cancel", isError: true,
			want: "the user canceled the request for input: nothing was done"},
		{name: "optional declined", tool: "ask_optional", action: "decline", want: "action=decline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
			cs := connect(t, url, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: tt.action, Content: tt.content}, nil
				},
			})
			res := callTool(t, testCtx(t), cs, tt.tool, nil)
			if got := runtime.ResultText(res); got != tt.want || res.IsError != tt.isError {
				t.Errorf("got %q (isError %v), want %q (isError %v)", got, res.IsError, tt.want, tt.isError)
			}
		})
	}
}

const confirmConfig = `
version: 1
tools:
  - name: drop_table
    description: Drops a table.
    args: [{name: table, required: true}]
    confirm: "Drop table {{ .args.table }}?"
    annotations: {destructive: true}
    handler: {kind: probe}
`

func TestHTTPConfirmRunsNothingUnlessAccepted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		action, want string
		ran          int64
	}{
		{action: "accept", want: "probe ran", ran: 1},
		{action: "decline", want: "the user declined the confirmation: nothing was done"},
		{action: "cancel", want: "the user canceled the confirmation: nothing was done"},
	} {
		t.Run(tt.action, func(t *testing.T) {
			t.Parallel()
			p := newProbe(false)
			_, url, _ := serve(t, handlers.NewRegistry(p.kind()), confirmConfig, nil, transport.HTTPOptions{})
			var asked *mcp.ElicitParams
			cs := connect(t, url, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked = req.Params
					return &mcp.ElicitResult{Action: tt.action}, nil
				},
			})
			res := callTool(t, testCtx(t), cs, "drop_table", map[string]any{"table": "users"})
			if got := runtime.ResultText(res); got != tt.want {
				t.Errorf("result %q, want %q", got, tt.want)
			}
			if res.IsError != (tt.ran == 0) || p.calls.Load() != tt.ran {
				t.Errorf("isError %v, backend ran %d times; want %d", res.IsError, p.calls.Load(), tt.ran)
			}
			if asked == nil || asked.Message != "Drop table users?" {
				t.Errorf("elicitation %+v, want the message %q", asked, "Drop table users?")
			}
		})
	}
}

func TestHTTPDroppedStreamIsResumed(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, ctx, cs, "reconnect", nil)
	if got := runtime.ResultText(res); got != "resumed" {
		t.Errorf("result %q, want %q", got, "resumed")
	}
	waitFor(t, "both log messages", func() bool { logs, _, _ := rec.snapshot(); return len(logs) >= 2 })
	logs, _, _ := rec.snapshot()
	var data []any
	for _, l := range logs {
		data = append(data, l.Data)
	}
	if diff := cmp.Diff([]any{"before", "after"}, data); diff != "" {
		t.Errorf("messages around the reconnection (-want +got):\n%s", diff)
	}
}

const blockConfig = `
version: 1
tools:
  - name: block
    description: Blocks until released or canceled.
    handler: {kind: probe}
`

func TestHTTPCancellationReachesTheBackend(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, url, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{})
	cs := connect(t, url, nil)
	ctx, cancel := context.WithCancel(testCtx(t))
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "block"})
		errc <- err
	}()
	<-p.started
	cancel()
	if err := <-errc; err == nil {
		t.Error("canceled call returned no error")
	}
	waitFor(t, "the backend to see the cancellation", func() bool { return p.canceled.Load() == 1 })
	close(p.release)
	if got := runtime.ResultText(callTool(t, testCtx(t), cs, "block", nil)); got != "probe ran" {
		t.Errorf("after a cancellation the session answers %q", got)
	}
}

func TestHTTPResourceSubscription(t *testing.T) {
	t.Parallel()
	config := `
version: 1
resources:
  - {uri: "file:///notes", name: notes, file: notes.txt}
  - {uri: "mem://static", name: static, text: fixed}
`
	_, url, dir := serve(t, nil, config, map[string]string{"notes.txt": "v1"}, transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	for _, uri := range []string{"file:///notes", "mem://static", "mem://unknown"} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatalf("subscribing to %s: %v", uri, err)
		}
	}
	if caps := cs.InitializeResult().Capabilities.Resources; !caps.Subscribe || caps.ListChanged {
		t.Errorf("resources capability %+v, want subscribe and no listChanged", caps)
	}
	writeFile(t, filepath.Join(dir, "notes.txt"), "version two")
	waitFor(t, "an update notification", func() bool { _, _, u := rec.snapshot(); return len(u) > 0 })
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "file:///notes"}); err != nil {
		t.Fatal(err)
	}
	_, _, updated := rec.snapshot()
	if diff := cmp.Diff([]string{"file:///notes"}, updated[:1]); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
}

// TestHTTPTemplatedResourceSubscription checks that subscribing to a URI
// of a templated file resource watches that URI's file, and that a URI
// whose file would lie outside the root is refused.
func TestHTTPTemplatedResourceSubscription(t *testing.T) {
	t.Parallel()
	config := `
version: 1
resource_templates:
  - {uri_template: "docs://pages/{name}", name: page, file: "{{ .args.name }}.md"}
`
	_, url, dir := serve(t, nil, config, map[string]string{"a.md": "a1", "b.md": "b1"},
		transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "docs://pages/a"}); err != nil {
		t.Fatal(err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "docs://pages/..%2F..%2F..%2Fetc%2Fpasswd"}); err == nil {
		t.Error("subscribing to a URI outside the root succeeded")
	}
	writeFile(t, filepath.Join(dir, "b.md"), "b changed, not subscribed")
	writeFile(t, filepath.Join(dir, "a.md"), "a changed")
	waitFor(t, "an update notification", func() bool { _, _, u := rec.snapshot(); return len(u) > 0 })
	_, _, updated := rec.snapshot()
	// a write seen halfway is a second update of the same URI
	if diff := cmp.Diff([]string{"docs://pages/a"}, slices.Compact(updated)); diff != "" {
		t.Errorf("updates (-want +got):\n%s", diff)
	}
}

func TestHTTPLegacySSE(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	c := mcp.NewClient(&mcp.Implementation{Name: "old", Version: "1"}, nil)
	ctx := testCtx(t)
	cs, err := c.Connect(ctx, &mcp.SSEClientTransport{Endpoint: url + transport.SSEPath},
		&mcp.ClientSessionOptions{ProtocolVersion: "2024-11-05"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2024-11-05" {
		t.Errorf("negotiated %q, want 2024-11-05", v)
	}
	if got := runtime.ResultText(callTool(t, ctx, cs, "echo", map[string]any{"text": "old"})); got != "echo old" {
		t.Errorf("got %q", got)
	}
}

func TestHTTPStateless(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{Stateless: true})
	cs := connect(t, url, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
	})
	ctx := testCtx(t)
	if got := runtime.ResultText(callTool(t, ctx, cs, "echo", map[string]any{"text": "x"})); got != "echo x" {
		t.Errorf("got %q", got)
	}
	resp, err := testClient.Get(url + transport.SSEPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("legacy SSE endpoint in stateless mode: status %d, want 404", resp.StatusCode)
	}
	res := callTool(t, ctx, cs, "ask_user", nil)
	if !res.IsError || !strings.Contains(runtime.ResultText(res), "asking the user") {
		t.Errorf("elicitation stateless: %q (isError %v), want an error result", runtime.ResultText(res), res.IsError)
	}
}

func TestHTTPBackendNotifications(t *testing.T) {
	t.Parallel()
	p := newProbe(false)
	_, url, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{})
	var rec recorder
	cs := connect(t, url, rec.options())
	ctx := testCtx(t)
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "block"}
	params.SetProgressToken(42)
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the backend's notifications", func() bool { l, p, _ := rec.snapshot(); return len(l) > 0 && len(p) > 0 })
	logs, progress, _ := rec.snapshot()
	wantLog := []*mcp.LoggingMessageParams{{Level: "warning", Logger: "block", Data: map[string]any{"message": "backend says", "k": float64(1)}}}
	if diff := cmp.Diff(wantLog, logs); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	wantProgress := []*mcp.ProgressNotificationParams{{ProgressToken: float64(42), Progress: 3, Total: 4, Message: "backend progress"}}
	if diff := cmp.Diff(wantProgress, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

func TestHTTPProtocolVersions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		version   string
		stateless bool
	}{
		{"2024-11-05", false}, {"2025-03-26", false}, {"2025-06-18", false}, {"2025-11-25", false},
		{"2025-11-25", true}, {"2026-07-28", true},
	} {
		t.Run(fmt.Sprintf("%s/stateless=%v", tt.version, tt.stateless), func(t *testing.T) {
			t.Parallel()
			_, url, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{Stateless: tt.stateless})
			ctx := testCtx(t)
			c := mcp.NewClient(&mcp.Implementation{Name: "v", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + transport.MCPPath, HTTPClient: testClient},
				&mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if res := cs.InitializeResult(); res != nil && res.ProtocolVersion != tt.version {
				t.Errorf("negotiated %q", res.ProtocolVersion)
			}
			if got := runtime.ResultText(callTool(t, ctx, cs, "echo", map[string]any{"text": "v"})); got != "echo v" {
				t.Errorf("got %q", got)
			}
		})
	}
}

func TestHTTPStepResultsReachTheHandler(t *testing.T) {
	t.Parallel()
	config := `
version: 1
tools:
  - name: save_title
    description: Asks the model for a title and hands it to a command.
    steps:
      - sample: {prompt: Suggest a title., as: title}
    handler:
      kind: shell
      script: 'echo "title: $1"'
      params: ["${{ steps.title.text }}"]
`
	_, url, _ := serve(t, builtin.Registry(), config, nil, transport.HTTPOptions{})
	cs := connect(t, url, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "Go; Gophers & $HOME"}}, nil
		},
	})
	res := callTool(t, testCtx(t), cs, "save_title", nil)
	if got := strings.TrimSpace(runtime.ResultText(res)); got != "title: Go; Gophers & $HOME" {
		t.Errorf("got %q (isError %v)", got, res.IsError)
	}
}

func TestHTTPStepResultsReachAnHTTPHandler(t *testing.T) {
	t.Parallel()
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"got": %q}`, r.URL.Query().Get("title"))
	}))
	defer backend.Close()
	config := `
version: 1
tools:
  - name: save_title
    description: Asks the model for a title and sends it to an API.
    steps:
      - sample: {prompt: Suggest a title., as: title}
    handler:
      kind: http
      base_url: ` + backend.URL + `
      path: /titles
      query: {title: "${{ steps.title.text }}"}
    content: [{text: "saved {{ .result.got }}"}]
`
	_, url, _ := serve(t, builtin.Registry(), config, nil, transport.HTTPOptions{})
	cs := connect(t, url, &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "A & B?"}}, nil
		},
	})
	res := callTool(t, testCtx(t), cs, "save_title", nil)
	if got := runtime.ResultText(res); got != "saved A & B?" {
		t.Errorf("got %q (isError %v)", got, res.IsError)
	}
}
