package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsListPages checks that tools/list pages through every tool, in
// config order, and refuses cursors it did not hand out.
func TestToolsListPages(t *testing.T) {
	t.Parallel()
	var cfg strings.Builder
	cfg.WriteString("version: 1\ntools:\n")
	for i := range 5 {
		fmt.Fprintf(&cfg, "  - name: t%d\n    description: d\n    content: [{text: '%d'}]\n", i, i)
	}
	srv := mustCompile(t, cfg.String(), nil)
	srv.toolsPage = 2
	cs := session(t, srv, "", nil, nil)
	ctx := context.Background()

	var names, cursors []string
	params := &mcp.ListToolsParams{}
	for {
		page, err := cs.ListTools(ctx, params)
		if err != nil {
			t.Fatalf("tools/list with cursor %q: %v", params.Cursor, err)
		}
		if len(page.Tools) > 2 {
			t.Errorf("page of %d tools, want at most 2", len(page.Tools))
		}
		for _, tl := range page.Tools {
			names = append(names, tl.Name)
		}
		if page.NextCursor == "" {
			break
		}
		cursors = append(cursors, page.NextCursor)
		params = &mcp.ListToolsParams{Cursor: page.NextCursor}
	}
	if got := strings.Join(names, " "); got != "t0 t1 t2 t3 t4" {
		t.Errorf("tools over all pages: %s", got)
	}
	if len(cursors) != 2 {
		t.Errorf("cursors: %q, want 2", cursors)
	}

	for _, bad := range []string{"garbage!", encodeToolsCursor(0), encodeToolsCursor(5), encodeToolsCursor(-1),
		"dG9vbHM6", // "tools:" without a position
	} {
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: bad})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("tools/list with cursor %q: want -32602, got %v", bad, err)
		}
	}
}

// TestToolsCall checks the answers to tools/call that do not reach a tool.
func TestToolsCall(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, "version: 1\ntools:\n  - name: t\n    description: d\n    content: [{text: x}]\n", nil)
	cs := session(t, srv, "", nil, nil)
	ctx := context.Background()

	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nosuch"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || !strings.Contains(je.Message, `"nosuch"`) {
		t.Errorf("unknown tool: want -32602 naming it, got %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
	if err != nil || res.IsError || textOf(res.Content) != "x" {
		t.Errorf("tools/call without arguments: %v %+v", err, res)
	}
}

// TestToolsWithoutToolsCapability checks that a config without tools does
// not answer tools/list as if it had some.
func TestToolsWithoutToolsCapability(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, "version: 1\nprompts:\n  - name: p\n    description: d\n    messages: [{text: hi}]\n", nil)
	cs := session(t, srv, "", nil, nil)
	if cs.InitializeResult().Capabilities.Tools != nil {
		t.Error("tools capability declared without tools")
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err == nil && len(res.Tools) > 0 {
		t.Errorf("tools/list lists %d tools", len(res.Tools))
	}
}

// TestToolsSchemaExtensions checks that keywords the go-sdk interprets
// itself when it registers a tool (x-mcp-header, which it panics on when
// malformed) are served verbatim like any other schema keyword.
func TestToolsSchemaExtensions(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, `version: 1
tools:
  - name: t
    description: d
    input_schema:
      type: object
      properties:
        region: {type: object, x-mcp-header: ""}
    content: [{text: x}]
`, nil)
	wire := &syncBuffer{}
	cs := session(t, srv, "", nil, wire)
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(wire.String(), `"region":{"type":"object","x-mcp-header":""}`) {
		t.Errorf("the schema is not served verbatim; wire:\n%s", wire)
	}
}
