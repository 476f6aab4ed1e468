package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/spill"
)

const capConfig = `version: 1
server:
  max_result: 2KiB
tools:
  - name: echo
    description: Echo the text.
    max_result: 300
    args: [{name: text, required: true}]
    handler:
      kind: echo
      log: "token ${API_TOKEN}"
      result: ${{ args.text }}
  - name: wide
    description: Echo with the server's cap.
    args: [{name: text, required: true}]
    handler: {kind: echo, result: "${{ args.text }}"}
  - name: open
    description: Echo with a cap of its own, above the server's.
    max_result: 1MiB
    args: [{name: text, required: true}]
    handler: {kind: echo, result: "${{ args.text }}"}
`

// TestResultCap: a result longer than its tool's max_result (or the
// server's) is cut at a line end, with a note; a credential that the cut
// would halve is masked first, so no part of it shows.
func TestResultCap(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": capConfig})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")},
		load.Options{LookupEnv: envMap(map[string]string{"API_TOKEN": "tok-123456"})},
		BuildOptions{Registry: testRegistry(new(atomic.Int64))})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	call := func(tool, text string) string {
		t.Helper()
		args, _ := json.Marshal(map[string]any{"text": text})
		res, err := srv.CallTool(context.Background(), tool, args, nil)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tool, err, textOf(res.Content))
		}
		return textOf(res.Content)
	}
	lines := strings.Repeat(strings.Repeat("a", 59)+"\n", 10) // 600 bytes
	got := call("echo", lines)
	if want := strings.Repeat(strings.Repeat("a", 59)+"\n", 5) + "\n[result cut: 300 of 600 bytes shown."; !strings.HasPrefix(got, want) {
		t.Errorf("cut result = %q, want it to start %q", got, want)
	}
	secret := strings.Repeat("b", 295) + "tok-123456 and more"
	if got := call("echo", secret); strings.Contains(got, "tok-") || !strings.Contains(got, "result cut") {
		t.Errorf("a credential across the cut: %q", got)
	}
	if got := call("echo", "short"); got != "short" {
		t.Errorf("short result = %q", got)
	}
	long := strings.Repeat("c", 3000)
	if got := call("wide", long); !strings.Contains(got, "2048 of 3000 bytes shown") {
		t.Errorf("server cap: %q", got[len(got)-120:])
	}
	if got := call("open", long); got != long {
		t.Errorf("max_result: 1MiB cut the result to %d bytes", len(got))
	}
}

// TestResultCapDiagnostics: a cap too small to hold the note is an error.
func TestResultCapDiagnostics(t *testing.T) {
	t.Parallel()
	_, ds := compileText(t, "version: 1\nserver: {max_result: 10}\ntools:\n  - name: a\n    description: A.\n    max_result: 100\n    content: [{text: hi}]\n", nil)
	got := ds.Error()
	for _, want := range []string{":2:22: server.max_result: max_result must be at least 256 bytes, to leave room for the note",
		":6:17: tools[0].max_result: max_result must be at least 256 bytes"} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics:\n%s\nwant %q", got, want)
		}
	}
}

// TestResultPages: with overflow: pages, a long result's first page links
// to the next through the results template; reading the pages in turn
// gives the whole text back; another caller cannot read them.
func TestResultPages(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, `version: 1
tools:
  - name: dump
    description: Echo the text, in pages.
    max_result: 300
    overflow: pages
    args: [{name: text, required: true}]
    handler: {kind: echo, result: "${{ args.text }}"}
`, nil)
	ann := auth.NewCaller(auth.Caller{Subject: "ann"}, "t1")
	cs := sessionAs(t, srv, ann)
	ctx := context.Background()
	whole := ""
	for i := range 20 {
		whole += fmt.Sprintf("line %02d %s\n", i, strings.Repeat("x", 40))
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "dump", Arguments: map[string]any{"text": whole}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %v", err, res)
	}
	got := res.Content[0].(*mcp.TextContent).Text
	link, ok := res.Content[len(res.Content)-1].(*mcp.ResourceLink)
	if !ok || !strings.HasPrefix(link.URI, "mcpgen://results/") || !strings.HasSuffix(link.URI, "/2") {
		t.Fatalf("want a resource link to page 2 last, got %#v", res.Content)
	}
	if note := res.Content[1].(*mcp.TextContent).Text; !strings.Contains(note, "in 4 pages; this is page 1") {
		t.Errorf("note = %q", note)
	}
	next := link.URI
	for next != "" {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: next})
		if err != nil {
			t.Fatalf("read %s: %v", next, err)
		}
		text := rr.Contents[0].Text
		i := strings.LastIndex(text, "\n[page ")
		got += text[:i]
		next = ""
		if _, uri, ok := strings.Cut(text[i:], "next: "); ok {
			next = strings.TrimSuffix(uri, "]")
		}
	}
	if got != whole {
		t.Errorf("pages joined =\n%q\nwant\n%q", got, whole)
	}
	bob := sessionAs(t, srv, auth.NewCaller(auth.Caller{Subject: "bob"}, "t2"))
	if _, err := bob.ReadResource(ctx, &mcp.ReadResourceParams{URI: link.URI}); err == nil {
		t.Error("another caller read the pages")
	}
	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpls.ResourceTemplates) != 1 || tmpls.ResourceTemplates[0].URITemplate != spill.Template {
		t.Errorf("templates: %v %v", err, tmpls)
	}
}
