package runtime

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"golang.org/x/net/html"
)

// appExample builds examples/apps with the real backend kinds.
func appExample(t *testing.T) *Server {
	t.Helper()
	srv, ds := Compile([]string{"../examples/apps/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: builtin.Registry()})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// uiClient declares the MCP Apps extension, as a client that renders apps.
var uiClient = &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
	Extensions: map[string]any{appExtension: map[string]any{"mimeTypes": []string{plan.AppMIMEType}}}}}

// TestAppNegotiation: the extension is advertised when the config has an
// app; a client with it and a client without it both get the tool's
// results (content for the model, structuredContent for the page) and the
// tool's link to its page.
func TestAppNegotiation(t *testing.T) {
	srv := appExample(t)
	for _, tt := range []struct {
		name string
		opts *mcp.ClientOptions
	}{{"with the extension", uiClient}, {"without it", nil}} {
		t.Run(tt.name, func(t *testing.T) {
			cs := session(t, srv, "2025-11-25", tt.opts, nil)
			ctx := context.Background()
			ext := cs.InitializeResult().Capabilities.Extensions
			if d := cmp.Diff(map[string]any{appExtension: map[string]any{"mimeTypes": []any{plan.AppMIMEType}}}, ext); d != "" {
				t.Errorf("extensions (-want +got):\n%s", d)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			metas := map[string]any{}
			for _, tl := range tools.Tools {
				metas[tl.Name] = tl.Meta["ui"]
			}
			want := map[string]any{"list_orders": map[string]any{"resourceUri": "ui://orders/table"},
				"refresh_orders": map[string]any{"resourceUri": "ui://orders/table", "visibility": []any{"app"}}}
			if d := cmp.Diff(want, metas); d != "" {
				t.Errorf("tools' _meta.ui (-want +got):\n%s", d)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_orders", Arguments: map[string]any{"status": "shipped"}})
			if err != nil || res.IsError {
				t.Fatalf("list_orders: %v %+v", err, res)
			}
			if text := textOf(res.Content); !strings.Contains(text, "Alan Turing") || !strings.Contains(text, "(2 rows)") {
				t.Errorf("text for the model: %q", text)
			}
			if rows := res.StructuredContent.(map[string]any)["rows"].([]any); len(rows) != 2 {
				t.Errorf("structuredContent rows: %v", rows)
			}
		})
	}
	plain := mustCompile(t, "version: 1\ntools: [{name: t, description: d, content: [{text: hi}]}]\n", nil)
	if ext := session(t, plain, "2025-11-25", uiClient, nil).InitializeResult().Capabilities.Extensions; ext != nil {
		t.Errorf("a config without apps advertises %v", ext)
	}
}

// TestAppResource reads the page: the extension's MIME type and settings on
// the listing and on the contents, and a complete HTML document.
func TestAppResource(t *testing.T) {
	cs := session(t, appExample(t), "2025-11-25", uiClient, nil)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantMeta := mcp.Meta{"ui": map[string]any{"prefersBorder": true, "permissions": map[string]any{"clipboardWrite": map[string]any{}}}}
	if r := list.Resources[0]; r.URI != "ui://orders/table" || r.MIMEType != plan.AppMIMEType || !cmp.Equal(wantMeta, r.Meta) {
		t.Errorf("listed: %+v", r)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://orders/table"})
	if err != nil {
		t.Fatal(err)
	}
	c := read.Contents[0]
	if c.MIMEType != plan.AppMIMEType {
		t.Errorf("MIME type %q", c.MIMEType)
	}
	if d := cmp.Diff(wantMeta, c.Meta); d != "" {
		t.Errorf("contents' _meta (-want +got):\n%s", d)
	}
	checkPage(t, c.Text)
}

// checkPage parses an app's page: a document with a title, the table the
// script fills, and one inline script that loads nothing from elsewhere.
func checkPage(t *testing.T, page string) {
	t.Helper()
	if !strings.HasPrefix(page, "<!DOCTYPE html>") {
		t.Errorf("the page does not start with a doctype: %.40q", page)
	}
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]int{}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		found[n.Data]++
		for _, a := range n.Attr {
			if a.Key == "id" {
				found["#"+a.Val]++
			}
			if a.Key == "src" || a.Key == "href" {
				t.Errorf("<%s> loads %s: the page's CSP allows no other origin", n.Data, a.Val)
			}
		}
	}
	for _, want := range []string{"title", "table", "#rows", "#status", "#refresh", "script"} {
		if found[want] != 1 {
			t.Errorf("%d of %s in the page, want 1", found[want], want)
		}
	}
}

// pageScript returns the text of the page's script.
func pageScript(t *testing.T, page string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "script" && n.FirstChild != nil {
			return n.FirstChild.Data
		}
	}
	t.Fatal("no script in the page")
	return ""
}

// TestAppPageScript runs the page's script under Node with the results the
// example's tools really return: it answers the client's handshake, renders
// the rows (escaped), sorts them on a click and asks for fresh rows with
// the refresh tool.
func TestAppPageScript(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("MCPGEN_TEST_NODE_REQUIRED") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	cs := session(t, appExample(t), "2025-11-25", uiClient, nil)
	ctx := context.Background()
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://orders/table"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, v any) string {
		data, ok := v.([]byte)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	call := func(name string, args map[string]any) *mcp.CallToolResult {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	out, err := exec.CommandContext(ctx, "node", "testdata/apps/harness.mjs",
		write("page.js", []byte(pageScript(t, read.Contents[0].Text))),
		write("result.json", call("list_orders", map[string]any{"status": "paid"})),
		write("refreshed.json", call("refresh_orders", nil))).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var got struct {
		Running                   string
		Result, Sorted, Refreshed struct{ Status, Head, Body string }
		Posted                    []struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
			Result any `json:"result"`
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Running != "Running…" || got.Result.Status != "2 rows" || got.Refreshed.Status != "5 rows" {
		t.Errorf("status: %q, then %q, after refresh %q", got.Running, got.Result.Status, got.Refreshed.Status)
	}
	if !strings.Contains(got.Result.Head, `<th data-column="customer">customer</th>`) {
		t.Errorf("header: %s", got.Result.Head)
	}
	if !strings.Contains(got.Result.Body, "<td>Edsger &lt;Dijkstra&gt;</td>") || strings.Contains(got.Result.Body, "<Dijkstra>") {
		t.Errorf("a customer's name is not escaped: %s", got.Result.Body)
	}
	if i, j := strings.Index(got.Sorted.Body, "9.99"), strings.Index(got.Sorted.Body, "120.5"); i < 0 || j < 0 || i > j {
		t.Errorf("sorted by total, 9.99 comes before 120.5: %s", got.Sorted.Body)
	}
	if n := strings.Count(got.Refreshed.Body, "<tr>"); n != 5 {
		t.Errorf("%d rows after refresh, want 5", n)
	}
	var methods []string
	for _, m := range got.Posted {
		methods = append(methods, cmpOrResult(m.Method, m.Result))
	}
	want := []string{"ui/initialize", "ui/notifications/initialized", "tools/call", "result"}
	if d := cmp.Diff(want, methods); d != "" {
		t.Errorf("messages the page sent (-want +got):\n%s", d)
	}
	if len(got.Posted) == len(want) && got.Posted[2].Params.Name != "refresh_orders" {
		t.Errorf("refresh called %q", got.Posted[2].Params.Name)
	}
}

func cmpOrResult(method string, result any) string {
	if method == "" && result != nil {
		return "result"
	}
	return method
}
