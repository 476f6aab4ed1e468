package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
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
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "tt"})
	if !errors.As(err, &je) || je.Message != `unknown tool "tt"; did you mean "t"?` {
		t.Errorf("misspelt tool: want a suggestion, got %v", err)
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

// TestParamHeaderDiagnostics: x-mcp-header annotations, written with
// `header:` or in a verbatim schema, are checked by the spec's rules when
// the file loads (the go-sdk panics on the ones it would check itself).
func TestParamHeaderDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, tool string
		want       []string
	}{
		{"valid", `args: [{name: region, header: Region}, {name: n, type: integer, header: N}, {name: b, type: boolean, header: B}]`, nil},
		{"empty in a schema", `input_schema: {type: object, properties: {region: {type: string, x-mcp-header: ""}}}`,
			[]string{"5:19: tools[0].input_schema: x-mcp-header must be a non-empty header name"}},
		{"bad character", `args: [{name: region, header: "Re gion"}]`,
			[]string{`5:35: tools[0].args[0].header: header name "Re gion" has characters a header name cannot have; use letters, digits and !#$%&'*+-.^_` + "`" + `|~`}},
		{"twice regardless of case", `args: [{name: a, header: Region}, {name: b, header: REGION}]`,
			[]string{`5:57: tools[0].args[1].header: header name "REGION" is used twice in this tool (also "Region"; names ignore case)`}},
		{"number", `args: [{name: x, type: number, header: X}]`,
			[]string{`5:44: tools[0].args[0].header: header "X" is on an argument of type number; only string, integer and boolean arguments can be mirrored in a header`}},
		{"inside items", `input_schema: {type: object, properties: {l: {type: array, items: {type: string, x-mcp-header: L}}}}`,
			[]string{"5:19: tools[0].input_schema: x-mcp-header is allowed only on properties reached from the root through `properties`, not inside items, anyOf, oneOf, allOf, if or $defs"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			config := "version: 1\ntools:\n  - name: t\n    description: d\n    " + tt.tool + "\n    content: [{text: ok}]\n"
			if diff := cmp.Diff(tt.want, diagnose(t, config)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
