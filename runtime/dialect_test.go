package runtime

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/shellkind"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// suiteSchema is the input schema the conformance suite (0.2.0-alpha.12,
// json-schema-2020-12) expects of json_schema_2020_12_tool, keyword for
// keyword.
const suiteSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
"$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},
"additionalProperties":false}`

// TestJSONSchema2020Fixture lists the conformance example's 2020-12 tool:
// its schema reaches clients with every keyword the suite looks for, and
// calls are validated by those keywords (composition, conditionals, $ref).
func TestJSONSchema2020Fixture(t *testing.T) {
	srv, ds := Compile([]string{"../examples/conformance/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: handlers.NewRegistry(shellkind.Kind())}) // its list-change fixtures are shell tools
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	cs := session(t, srv, "2025-11-25", nil, nil)
	ctx := context.Background()
	var got any
	for tl, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tl.Name == "json_schema_2020_12_tool" {
			raw, _ := json.Marshal(tl.InputSchema)
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
		}
	}
	var want any
	if err := json.Unmarshal([]byte(suiteSchema), &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("inputSchema (-want +got):\n%s", d)
	}
	for _, tt := range []struct {
		name  string
		args  map[string]any
		fails string // in the error result; "" for success
	}{
		{"phone", map[string]any{"contactMethod": "phone", "phone": "1", "address": map[string]any{"city": "Oslo"}}, ""},
		{"email by default", map[string]any{"email": "a@b"}, ""},
		{"then: phone missing", map[string]any{"contactMethod": "phone", "email": "a@b"}, "at /: missing property 'phone'"},
		{"anyOf: neither", map[string]any{"name": "x"}, "missing property"},
		{"$ref: address", map[string]any{"email": "a@b", "address": map[string]any{"city": 3}}, "at /address/city"},
		{"additionalProperties", map[string]any{"email": "a@b", "fax": "1"}, "additional properties 'fax'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "json_schema_2020_12_tool", Arguments: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			text := textOf(res.Content)
			if res.IsError != (tt.fails != "") || !strings.Contains(text, tt.fails) {
				t.Errorf("isError %v, %q; want an error containing %q", res.IsError, text, tt.fails)
			}
		})
	}
}

// TestGeneratedSchemasAre2020 checks the input schemas mcpgen generates
// from the concise argument form, with every option, against the 2020-12
// metaschema: without $schema they are read as 2020-12, so they must be
// valid in it.
func TestGeneratedSchemasAre2020(t *testing.T) {
	srv := mustCompile(t, `version: 1
tools:
  - name: every_option
    description: d
    args:
      - {name: s, required: true, description: text, default: x, min_length: 1, max_length: 9, pattern: "^[a-z]+$"}
      - {name: n, type: number, minimum: 0.5, maximum: 9.5}
      - {name: i, type: integer, enum: [1, 2, 3]}
      - {name: b, type: boolean, default: true}
      - {name: a, type: array, items: integer}
      - {name: o, type: object}
    content: [{text: hi}]
`, nil)
	c := jsonschema.NewCompiler()
	meta, err := c.Compile("https://json-schema.org/draft/2020-12/schema")
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range srv.plan.Tools {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tl.Args.Schema().Raw())))
		if err != nil {
			t.Fatal(err)
		}
		if err := meta.Validate(doc); err != nil {
			t.Errorf("%s: %s is not a valid 2020-12 schema: %v", tl.Def.Name, tl.Args.Schema().Raw(), err)
		}
	}
}

// TestSchemaDialects accepts the drafts mcpgen validates by and reports any
// other $schema at its position.
func TestSchemaDialects(t *testing.T) {
	tool := func(name, key, dialect string) string {
		return "  - name: " + name + "\n    description: d\n    " + key + ":\n      $schema: " + dialect +
			"\n      type: object\n    handler: {kind: echo, result: \"${{ {} }}\"}\n"
	}
	config := "version: 1\ntools:\n" +
		tool("a", "input_schema", "https://json-schema.org/draft/2020-12/schema") +
		tool("b", "input_schema", `"http://json-schema.org/draft-07/schema#"`) +
		tool("c", "output_schema", "https://json-schema.org/draft/2019-09/schema") +
		tool("d", "input_schema", "https://example.com/my-dialect") +
		tool("e", "output_schema", "42")
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": config})
	_, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil)})
	hint := "; omit $schema for 2020-12, the default, or name one of https://json-schema.org/draft/2020-12/schema, " +
		"https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema, " +
		"http://json-schema.org/draft-06/schema, http://json-schema.org/draft-04/schema\n"
	want := `mcpgen.yaml:24:16: tools[3].input_schema.$schema: unsupported JSON Schema dialect "https://example.com/my-dialect"` + hint +
		`mcpgen.yaml:30:16: tools[4].output_schema.$schema: unsupported JSON Schema dialect 42` + hint
	if d := cmp.Diff(want, diagText(ds, dir)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}
