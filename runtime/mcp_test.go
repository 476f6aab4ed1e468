package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// syncBuffer is a bytes.Buffer safe for the transport's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// session connects a go-sdk client to srv over in-memory transports; wire
// receives every message the client sends and receives; the client has
// roots, if any.
func session(t *testing.T, srv *Server, version string, opts *mcp.ClientOptions, wire *syncBuffer, roots ...*mcp.Root) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var transport mcp.Transport = ct
	if wire != nil {
		transport = &mcp.LoggingTransport{Transport: ct, Writer: wire}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	c.AddRoots(roots...)
	cs, err := c.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

const fullConfig = `version: 1
server:
  name: demo
  version: 1.2.3
  instructions: Use the tools.
tools:
  - name: add
    description: Adds two numbers.
    input_schema:
      $schema: https://json-schema.org/draft/2020-12/schema
      type: object
      $defs:
        num: {type: number, description: A number.}
      properties:
        a: {$ref: "#/$defs/num"}
        b: {$ref: "#/$defs/num"}
      required: [a, b]
      additionalProperties: false
    annotations:
      read_only: true
    handler:
      kind: echo
      result: ${{ args.a + args.b }}
      log: adding
prompts:
  - name: review
    description: Reviews code.
    arguments:
      - name: language
        required: true
        complete: [go, golang, python, rust]
      - name: style
        default: terse
    messages:
      - text: "Review this {{ .args.language }} code, {{ .args.style }}."
      - role: assistant
        text: Sure.
resources:
  - uri: docs://hello
    name: hello
    text: hello
resource_templates:
  - uri_template: docs://pages/{name}
    name: pages
    text: "Page {{ .args.name }}"
    complete:
      name: [intro, install, usage]
`

// TestMCPSession drives the protocol surface through the go-sdk client, with
// a session (initialize, logging/setLevel) and with the stateless protocol
// of 2026-07-28 (server/discover, the log level in each request's _meta).
func TestMCPSession(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			testMCPSession(t, version)
		})
	}
}

func testMCPSession(t *testing.T, version string) {
	srv := mustCompile(t, fullConfig, nil)
	logs := make(chan *mcp.LoggingMessageParams, 10)
	opts := &mcp.ClientOptions{LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
		logs <- req.Params
	}}
	wire := &syncBuffer{}
	cs := session(t, srv, version, opts, wire)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "demo" || init.ServerInfo.Version != "1.2.3" || init.Instructions != "Use the tools." {
		t.Errorf("initialize: %+v %q", init.ServerInfo, init.Instructions)
	}
	c := init.Capabilities
	if c.Tools == nil || c.Prompts == nil || c.Resources == nil || c.Completions == nil || c.Logging == nil {
		t.Errorf("capabilities: %+v", c)
	}

	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	// the schema goes on the wire exactly as written, $schema and $defs included
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"num":{"type":"number","description":"A number."}},"properties":{"a":{"$ref":"#/$defs/num"},"b":{"$ref":"#/$defs/num"}},"required":["a","b"],"additionalProperties":false}`
	if !strings.Contains(wire.String(), `"inputSchema":`+schema) {
		t.Errorf("tools/list does not carry the input schema verbatim; wire:\n%s", wire)
	}
	if a := tools.Tools[0].Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("annotations: %+v", a)
	}

	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Errorf("logging/setLevel: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 1, "b": 2.5},
		Meta: mcp.Meta{mcp.MetaKeyLogLevel: "info"}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	if diff := cmp.Diff(float64(3.5), res.StructuredContent); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	select {
	case l := <-logs:
		if l.Level != "info" || l.Logger != "add" {
			t.Errorf("log: %+v", l)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("no log message at level info; wire:\n%s", wire)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": "1"}})
	if err != nil || !res.IsError || !strings.Contains(textOf(res.Content), "/a") {
		t.Errorf("tools/call with bad arguments: want a tool error, got %v %+v", err, res)
	}

	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review", Arguments: map[string]string{"language": "Go"}})
	if err != nil {
		t.Fatalf("prompts/get: %v", err)
	}
	want := []*mcp.PromptMessage{
		{Role: "user", Content: &mcp.TextContent{Text: "Review this Go code, terse."}},
		{Role: "assistant", Content: &mcp.TextContent{Text: "Sure."}},
	}
	if diff := cmp.Diff(want, prompt.Messages); diff != "" {
		t.Errorf("prompts/get (-want +got):\n%s", diff)
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, "language") {
		t.Errorf("prompts/get without a required argument: want -32602 naming it, got %v", err)
	}

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "docs://pages/usage"})
	if err != nil || read.Contents[0].Text != "Page usage" {
		t.Errorf("resources/read: %v %+v", err, read)
	}
	comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "review"},
		Argument: mcp.CompleteParamsArgument{Name: "language", Value: "Go"}})
	if err != nil {
		t.Fatalf("completion/complete: %v", err)
	}
	if diff := cmp.Diff([]string{"go", "golang"}, comp.Completion.Values); diff != "" {
		t.Errorf("completion (-want +got):\n%s", diff)
	}
	comp, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "docs://pages/{name}"},
		Argument: mcp.CompleteParamsArgument{Name: "name", Value: "in"}})
	if err != nil || !cmp.Equal([]string{"intro", "install"}, comp.Completion.Values) {
		t.Errorf("completion of a template variable: %v %+v", err, comp)
	}
}

// TestMCPCapabilitiesFollowConfig checks that a config with only tools
// declares neither prompts, resources nor completions.
func TestMCPCapabilitiesFollowConfig(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, "version: 1\ntools:\n  - name: t\n    description: d\n    content: [{text: x}]\n", nil)
	cs := session(t, srv, "", nil, nil)
	c := cs.InitializeResult().Capabilities
	if c.Tools == nil || c.Logging == nil || c.Prompts != nil || c.Resources != nil || c.Completions != nil {
		t.Errorf("capabilities: tools %v logging %v prompts %v resources %v completions %v",
			c.Tools, c.Logging, c.Prompts, c.Resources, c.Completions)
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	var many []string
	for i := range 150 {
		many = append(many, fmt.Sprintf("v%03d", i))
	}
	for _, tt := range []struct {
		name, prefix string
		values       []string
		want         int
		total        int
		hasMore      bool
	}{
		{"empty prefix, few", "", []string{"a", "b"}, 2, 2, false},
		{"case-insensitive prefix", "GO", []string{"go", "Golang", "python"}, 2, 2, false},
		{"no match", "zz", []string{"a"}, 0, 0, false},
		{"more than 100", "v", many, 100, 150, true},
		{"exactly 100", "v0", many, 100, 100, false},
		{"narrowed", "v14", many, 10, 10, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := completion(tt.values, tt.prefix).Completion
			if len(got.Values) != tt.want || got.Total != tt.total || got.HasMore != tt.hasMore {
				t.Errorf("got %d values, total %d, hasMore %v; want %d, %d, %v",
					len(got.Values), got.Total, got.HasMore, tt.want, tt.total, tt.hasMore)
			}
			for _, v := range got.Values {
				if !strings.HasPrefix(strings.ToLower(v), strings.ToLower(tt.prefix)) {
					t.Errorf("%q does not start with %q", v, tt.prefix)
				}
			}
		})
	}
}
