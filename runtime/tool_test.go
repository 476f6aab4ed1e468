package runtime

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

const argsConfig = `version: 1
tools:
  - name: search
    description: Searches.
    args:
      - name: query
        required: true
        min_length: 2
      - name: limit
        type: integer
        minimum: 1
        maximum: 50
        default: 10
      - name: ratio
        type: number
        default: 1
      - name: mode
        enum: [fast, exact]
        default: fast
      - name: tags
        type: array
        items: integer
    handler:
      kind: echo
      result: ${{ args }}
`

// TestToolArgumentValidation checks that invalid arguments come back as an
// error result naming the field and the rule, and that the handler never
// runs.
func TestToolArgumentValidation(t *testing.T) {
	t.Parallel()
	calls := new(atomic.Int64)
	dir := writeFiles(t, map[string]string{"c.yaml": argsConfig})
	srv, ds := Compile([]string{filepath.Join(dir, "c.yaml")}, load.Options{}, BuildOptions{Registry: testRegistry(calls)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	for _, tt := range []struct {
		name, args string
		want       []string
	}{
		{"missing required", `{}`, []string{"invalid arguments", "at /:", "missing property 'query'"}},
		{"too short", `{"query":"a"}`, []string{"at /query:", "minLength"}},
		{"above maximum", `{"query":"ab","limit":51}`, []string{"at /limit:", "maximum"}},
		{"wrong type", `{"query":"ab","limit":"ten"}`, []string{"at /limit:", "want integer"}},
		{"not in enum", `{"query":"ab","mode":"slow"}`, []string{"at /mode:", "fast", "exact"}},
		{"item type", `{"query":"ab","tags":[1,"x"]}`, []string{"at /tags/1:", "want integer"}},
		{"unknown argument", `{"query":"ab","qurey":"x"}`, []string{"additional properties 'qurey'"}},
		{"two problems", `{"query":"a","limit":0}`, []string{"at /limit:", "at /query:"}},
		{"not an object", `[1]`, []string{"arguments must be an object"}},
		{"not JSON", `{"query":`, []string{"invalid arguments"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := srv.CallTool(context.Background(), "search", []byte(tt.args), nil)
			if err != nil {
				t.Fatal(err)
			}
			text := textOf(res.Content)
			if !res.IsError {
				t.Errorf("want an error result, got %s", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("error %q does not contain %q", text, w)
				}
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the handler ran %d times on invalid arguments", n)
	}
	if _, err := srv.CallTool(context.Background(), "nosuch", nil, nil); err == nil {
		t.Error("calling an unknown tool is not an error")
	}
}

// TestToolDefaults checks that defaults are applied before the handler runs,
// with numbers typed as the schema says.
func TestToolDefaults(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, argsConfig, nil)
	for _, tt := range []struct {
		name, args string
		want       map[string]any
	}{
		{"all defaults", `{"query":"ab"}`, map[string]any{"query": "ab", "limit": int64(10), "ratio": float64(1), "mode": "fast"}},
		{"given wins", `{"query":"ab","limit":3,"ratio":2,"mode":"exact","tags":[1]}`,
			map[string]any{"query": "ab", "limit": int64(3), "ratio": float64(2), "mode": "exact", "tags": []any{int64(1)}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := srv.CallTool(context.Background(), "search", []byte(tt.args), nil)
			if err != nil || res.IsError {
				t.Fatalf("%v %s", err, textOf(res.Content))
			}
			if diff := cmp.Diff(tt.want, res.StructuredContent); diff != "" {
				t.Errorf("arguments the handler saw (-want +got):\n%s", diff)
			}
		})
	}
	// absent arguments and null are both no arguments
	for _, raw := range []string{"", "null"} {
		res, _ := srv.CallTool(context.Background(), "search", []byte(raw), nil)
		if !res.IsError || !strings.Contains(textOf(res.Content), "query") {
			t.Errorf("arguments %q: want the missing query reported, got %s", raw, textOf(res.Content))
		}
	}
}

const outputConfig = `version: 1
tools:
  - name: ok
    description: Returns a valid result.
    output_schema:
      type: object
      properties:
        n: {type: integer}
      required: [n]
    handler:
      kind: echo
      result:
        n: ${{ 1 + 1 }}
  - name: bad
    description: Returns an invalid result.
    output_schema:
      type: object
      properties:
        n: {type: integer}
      required: [n]
    handler:
      kind: echo
      result: {m: x}
  - name: textonly
    description: Returns text where structured content is declared.
    output_schema:
      type: object
    handler:
      kind: echo
      result: just text
  - name: fails
    description: Fails.
    handler:
      kind: echo
      fail: backend down
  - name: canned
    description: A canned error.
    error: true
    content:
      - text: not today
`

func TestToolOutputSchema(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, outputConfig, nil)
	call := func(name string) *mcp.CallToolResult {
		res, err := srv.CallTool(context.Background(), name, []byte(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call("ok")
	if res.IsError {
		t.Fatalf("ok: %s", textOf(res.Content))
	}
	if diff := cmp.Diff(map[string]any{"n": 2}, res.StructuredContent); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	// the structured result is also given as text, for clients that read only text
	var fromText map[string]any
	if err := json.Unmarshal([]byte(textOf(res.Content)), &fromText); err != nil || fromText["n"] != float64(2) {
		t.Errorf("text %q does not carry the structured result (%v)", textOf(res.Content), err)
	}
	res = call("bad")
	if !res.IsError || res.StructuredContent != nil || !strings.Contains(textOf(res.Content), "output schema") ||
		!strings.Contains(textOf(res.Content), "missing property 'n'") {
		t.Errorf("bad: want an error naming the output schema, got isError=%v %q", res.IsError, textOf(res.Content))
	}
	res = call("textonly")
	if !res.IsError || !strings.Contains(textOf(res.Content), "output schema") {
		t.Errorf("textonly: want an error naming the output schema, got isError=%v %q", res.IsError, textOf(res.Content))
	}
	res = call("fails")
	if !res.IsError || textOf(res.Content) != "backend down" {
		t.Errorf("fails: got isError=%v %q", res.IsError, textOf(res.Content))
	}
	res = call("canned")
	if !res.IsError || textOf(res.Content) != "not today" {
		t.Errorf("canned: got isError=%v %q", res.IsError, textOf(res.Content))
	}
}

func TestToolContentBlocks(t *testing.T) {
	t.Parallel()
	config := `version: 1
tools:
  - name: all
    description: Every kind of block.
    args:
      - name: who
        default: world
    content:
      - text: "Hello {{ .args.who }}"
      - image: {data: iVBORw==, mime_type: image/png}
      - image: {file: pics/dot.png}
      - audio: {data: "UklG Rg==", mime_type: audio/wav}
      - audio: {file: beep.wav, mime_type: audio/x-wav}
      - resource: {uri: "docs://greeting/{{ .args.who }}", text: "Hi {{ .args.who }}"}
      - resource: {uri: docs://blob, blob: AAEC, mime_type: application/octet-stream}
      - resource: {uri: docs://notes, file: notes.md, mime_type: text/markdown}
      - resource_link: {uri: "docs://people/{{ .args.who }}", name: person, description: A person., mime_type: text/plain}
`
	srv := mustCompile(t, config, map[string]string{"pics/dot.png": "PNGDATA", "beep.wav": "RIFFDATA", "notes.md": "# Notes"})
	res, err := srv.CallTool(context.Background(), "all", []byte(`{"who":"Ada"}`), nil)
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, textOf(res.Content))
	}
	want := []mcp.Content{
		&mcp.TextContent{Text: "Hello Ada"},
		&mcp.ImageContent{Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"},
		&mcp.ImageContent{Data: []byte("PNGDATA"), MIMEType: "image/png"},
		&mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
		&mcp.AudioContent{Data: []byte("RIFFDATA"), MIMEType: "audio/x-wav"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "docs://greeting/Ada", MIMEType: "text/plain", Text: "Hi Ada"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "docs://blob", MIMEType: "application/octet-stream", Blob: []byte{0, 1, 2}}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "docs://notes", MIMEType: "text/markdown", Text: "# Notes"}},
		&mcp.ResourceLink{URI: "docs://people/Ada", Name: "person", Description: "A person.", MIMEType: "text/plain"},
	}
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

// TestToolSecretsRedacted checks that a value taken from the environment
// does not leave the server in an error.
func TestToolSecretsRedacted(t *testing.T) {
	t.Parallel()
	config := "version: 1\ntools:\n  - name: t\n    description: d\n    handler:\n      kind: echo\n      fail: \"login with ${TOKEN} refused\"\n"
	dir := writeFiles(t, map[string]string{"c.yaml": config})
	srv, ds := Compile([]string{filepath.Join(dir, "c.yaml")}, load.Options{LookupEnv: envMap(map[string]string{"TOKEN": "hunter2-secret"})},
		BuildOptions{Registry: testRegistry(new(atomic.Int64))})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	res, _ := srv.CallTool(context.Background(), "t", nil, nil)
	if got := textOf(res.Content); got != "login with **** refused" {
		t.Errorf("error text = %q", got)
	}
}

// TestToolErrorResultKeepsItsContent checks that a handler's error result
// reaches the model as the handler wrote it: the tool's content templates
// render successful results only.
func TestToolErrorResultKeepsItsContent(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, `version: 1
tools:
  - name: t
    description: d
    handler:
      kind: echo
      refuse: "404: no such record"
    content:
      - text: "Record {{ .result.id }}"
`, nil)
	res, err := srv.CallTool(context.Background(), "t", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || textOf(res.Content) != "404: no such record" {
		t.Errorf("got isError=%v %q, want the handler's error", res.IsError, textOf(res.Content))
	}
}

// TestToolDefaultsAreNotShared checks that each call gets its own copy of a
// list or object default: a handler that changes its arguments cannot
// change the next call's.
func TestToolDefaultsAreNotShared(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, `version: 1
tools:
  - name: t
    description: d
    input_schema:
      type: object
      properties:
        tags: {type: array, default: [a, b]}
        opts: {type: object, default: {deep: [1]}}
    content: [{text: x}]
`, nil)
	tl := srv.plan.ToolIndex["t"]
	first, err := tl.Args.Decode([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	first["tags"].([]any)[0] = "changed"
	first["opts"].(map[string]any)["deep"].([]any)[0] = "changed"
	second, err := tl.Args.Decode([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"tags": []any{"a", "b"}, "opts": map[string]any{"deep": []any{int64(1)}}}
	if diff := cmp.Diff(want, second); diff != "" {
		t.Errorf("second call's arguments (-want +got):\n%s", diff)
	}
}
