package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/fuzzseed"
)

// fuzzEnv is the environment fuzzed configs are loaded with.
var fuzzEnv = map[string]string{"HOST": "api.example.com", "EMPTY": "", "N": "3", "Ü": "x"}

// FuzzBuild loads and builds arbitrary bytes: it never panics and every
// diagnostic points at a line of the file (and a column on that line).
// Loading alone is fuzzed by load.FuzzBytes. Large seeds are split (see
// fuzzseed).
func FuzzBuild(f *testing.F) {
	fuzzseed.AddFiles(f, "../examples/*.yaml", "../examples/*/*.yaml", "testdata/diag/*.yaml")
	for _, s := range []string{fullConfig, resourceConfig, argsConfig, outputConfig, "version: 1\n", "{}", "[", "\t"} {
		fuzzseed.Add(f, []byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := load.Bytes("fuzz.yaml", data, load.Options{LookupEnv: envMap(fuzzEnv)})
		if file != nil {
			srv, bds := Build([]*load.File{file}, BuildOptions{Registry: testRegistry(nil)})
			if srv != nil {
				srv.MCP() // registration must not panic either
				srv.Close()
			}
			ds = append(ds, bds...)
		}
		lines := fuzzseed.Lines(data)
		for _, d := range ds {
			checkPosition(t, d, lines)
		}
	})
}

// checkPosition fails unless d lies inside the file.
func checkPosition(t *testing.T, d load.Diagnostic, lines [][]byte) {
	t.Helper()
	if d.Line < 1 || d.Line > len(lines)+1 || d.Col < 0 {
		t.Fatalf("diagnostic outside the file (%d lines): %s", len(lines), d)
	}
	if d.Col > 0 && d.Line <= len(lines) && utf8.Valid(lines[d.Line-1]) {
		if n := utf8.RuneCount(lines[d.Line-1]); d.Col > n+1 {
			t.Fatalf("diagnostic at column %d of a line of %d characters: %s\n%q", d.Col, n, d, lines[d.Line-1])
		}
	}
}

// fuzzCallConfig has a tool for each way arguments reach a result: a
// handler, a template, a schema given whole and an output schema.
const fuzzCallConfig = `version: 1
tools:
  - name: search
    description: Searches.
    args:
      - {name: query, required: true, min_length: 2, pattern: "^[a-z ]+$"}
      - {name: limit, type: integer, minimum: 1, maximum: 50, default: 10}
      - {name: ratio, type: number, default: 1}
      - {name: mode, enum: [fast, exact], default: fast}
      - {name: tags, type: array, items: integer}
      - {name: opts, type: object}
    handler:
      kind: echo
      result: ${{ args }}
  - name: render
    description: Renders its arguments.
    args: [{name: name}, {name: n, type: integer}, {name: list, type: array}]
    content:
      - text: "{{ .args.name | upper }} {{ .args.n }} {{ range .args.list }}[{{ . }}]{{ end }} {{ toJson .args }}"
  - name: typed
    description: A schema given whole.
    input_schema:
      type: object
      properties:
        a: {oneOf: [{type: string, maxLength: 3}, {type: array, items: {$ref: "#"}}]}
        b: {type: object, additionalProperties: {type: number}}
      additionalProperties: false
    output_schema: {type: object, required: [a]}
    handler:
      kind: echo
      result: ${{ args }}
`

// FuzzCall calls tools with arbitrary argument bytes: it never panics, the
// result is never nil, invalid arguments never reach the handler, and a
// result that passes is valid JSON on the wire.
func FuzzCall(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"query":"ab"}`, `{"query":"ab","limit":3,"tags":[1,2]}`,
		`{"query":1}`, `[]`, `{"name":"x","n":3,"list":[1,"a",{}]}`, `{"a":[["abc"],"x"],"b":{"k":1.5}}`,
		`{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, `{"query":"ab","limit":1e400}`,
		`{"query":"\u0000\ud800"}`, `{"n":9007199254740993}`, `{"query":"ab",`} {
		for _, tool := range []string{"search", "render", "typed"} {
			f.Add(tool, []byte(s))
		}
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(fuzzCallConfig), 0o644); err != nil {
		f.Fatal(err)
	}
	calls := new(atomic.Int64)
	srv, ds := Compile([]string{path}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(calls)})
	if ds.Errors() > 0 {
		f.Fatal(ds)
	}
	f.Cleanup(func() { srv.Close() })
	f.Fuzz(func(t *testing.T, tool string, args []byte) {
		before := calls.Load()
		res, err := srv.CallTool(context.Background(), tool, args, nil)
		if err != nil {
			if _, known := srv.plan.ToolIndex[tool]; known {
				t.Fatalf("calling %s: %v", tool, err)
			}
			return
		}
		if res == nil {
			t.Fatal("nil result")
		}
		if res.IsError && strings.HasPrefix(textOf(res.Content), "invalid arguments") && calls.Load() != before {
			t.Fatalf("the handler ran on invalid arguments %q", args)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result of %s(%q) does not marshal: %v", tool, args, err)
		}
	})
}
