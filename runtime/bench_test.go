package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// manyTools writes a config of n tools, each with arguments, an expression
// and a template, the way a generated config looks.
func manyTools(n int) string {
	var b strings.Builder
	b.WriteString("version: 1\nserver:\n  name: big\ntools:\n")
	for i := range n {
		fmt.Fprintf(&b, `  - name: tool_%d
    description: Looks up record %d by id.
    args:
      - name: id
        type: integer
        required: true
        minimum: 1
      - name: fields
        type: array
        items: string
      - name: mode
        enum: [fast, exact]
        default: fast
    handler:
      kind: echo
      result:
        id: ${{ args.id }}
        mode: "${{ args.mode }}-%d"
    content:
      - text: "Record {{ .args.id }} ({{ .args.mode }}): {{ .result }}"
`, i, i, i)
	}
	return b.String()
}

// BenchmarkCompile1000Tools measures validating a generated config of 1,000
// tools: load, schemas, expressions, templates, handlers.
func BenchmarkCompile1000Tools(b *testing.B) {
	dir := writeFiles(b, map[string]string{"big.yaml": manyTools(1000)})
	path := filepath.Join(dir, "big.yaml")
	reg := testRegistry(nil)
	b.ReportAllocs()
	for b.Loop() {
		srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{Registry: reg})
		if ds.Errors() > 0 || len(srv.ToolNames()) != 1000 {
			b.Fatalf("%d tools, diagnostics:\n%v", len(srv.ToolNames()), ds)
		}
		srv.Close()
	}
}

// connect serves srv to a go-sdk client over in-memory transports.
func connect(b *testing.B, srv *mcp.Server) *mcp.ClientSession {
	b.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// benchCall calls the tool "ping" until the benchmark ends.
func benchCall(b *testing.B, cs *mcp.ClientSession) {
	benchCallArgs(b, cs, `{}`)
}

// benchCallArgs calls the tool "ping" with args until the benchmark ends.
func benchCallArgs(b *testing.B, cs *mcp.ClientSession, args string) {
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "ping", Arguments: json.RawMessage(args)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "pong" {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkCallInMemory measures tools/call on a tool without a backend,
// through a go-sdk client and in-memory transports; compare with
// BenchmarkCallInMemorySDK.
func BenchmarkCallInMemory(b *testing.B) {
	srv := mustCompile(b, "version: 1\ntools:\n  - name: ping\n    description: Answers pong.\n    content:\n      - text: pong\n", nil)
	benchCall(b, connect(b, srv.MCP()))
}

// BenchmarkCallInMemorySDK is the go-sdk's own raw-handler server doing the
// same: a tool registered with AddTool returning a fixed text.
func BenchmarkCallInMemorySDK(b *testing.B) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ping", Description: "Answers pong.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, nil
		})
	benchCall(b, connect(b, srv))
}

// BenchmarkCallOneArg measures tools/call on a tool with one string
// argument, the shape of most generated tools (a query, an id): the
// arguments are decoded and checked against the input schema.
func BenchmarkCallOneArg(b *testing.B) {
	srv := mustCompile(b, `version: 1
tools:
  - name: ping
    description: d
    args: [{name: q, required: true, max_length: 200}]
    handler: {kind: echo, result: "${{ 'pong' }}"}
`, nil)
	benchCallArgs(b, connect(b, srv.MCP()), `{"q": "select id, name from users where id = 1"}`)
}

// BenchmarkCallOneArgFullSchema is BenchmarkCallOneArg with a schema
// keyword (propertyNames) that only the full JSON Schema validator checks.
func BenchmarkCallOneArgFullSchema(b *testing.B) {
	srv := mustCompile(b, `version: 1
tools:
  - name: ping
    description: d
    input_schema:
      type: object
      properties: {q: {type: string, maxLength: 200}}
      required: [q]
      additionalProperties: false
      propertyNames: {maxLength: 64}
    handler: {kind: echo, result: "${{ 'pong' }}"}
`, nil)
	benchCallArgs(b, connect(b, srv.MCP()), `{"q": "select id, name from users where id = 1"}`)
}
