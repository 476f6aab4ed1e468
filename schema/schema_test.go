package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// TestCommittedIsCurrent regenerates the schema and compares it with the
// committed mcpgen.schema.json.
func TestCommittedIsCurrent(t *testing.T) {
	got, err := Generate(builtin.Kinds(), "..")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, JSON()) {
		t.Errorf("schema/mcpgen.schema.json is stale: run `go generate ./schema` and commit it\n(-committed +generated):\n%s",
			cmp.Diff(string(JSON()), string(got)))
	}
}

// testKinds are two kinds with configs of their own, one with shared
// backends.
func testKinds() []handlers.Kind {
	return []handlers.Kind{
		{Name: "alpha", Doc: "Alpha does things.", NewConfig: func() handlers.Config { return &AlphaConfig{} }},
		{Name: "beta", Doc: "Beta does other things.", NewConfig: func() handlers.Config { return &BetaConfig{} },
			NewBackend: func() handlers.BackendConfig { return &BetaBackend{} }},
	}
}

// AlphaConfig configures alpha.
type AlphaConfig struct {
	// URL to call.
	URL string `yaml:"url" jsonschema:"required"`
	// Timeout of a call.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
}

func (*AlphaConfig) Build(handlers.BuildEnv) handlers.Handler { return nil }

// BetaConfig configures beta.
type BetaConfig struct {
	// Query to run.
	Query string `yaml:"query" jsonschema:"required"`
	// Params of the query.
	Params map[string]spec.Value `yaml:"params,omitempty"`
	// Raw is YAML the kind decodes itself.
	Raw spec.Node `yaml:"raw,omitempty"`
}

func (*BetaConfig) Build(handlers.BuildEnv) handlers.Handler { return nil }

// BetaBackend is a shared beta connection.
type BetaBackend struct {
	// DSN of the database.
	DSN string `yaml:"dsn" jsonschema:"required"`
}

func (*BetaBackend) Open(handlers.BuildEnv) any { return nil }

// compile generates the schema for kinds and compiles it.
func compile(t *testing.T, kinds []handlers.Kind) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	data, err := Generate(kinds, "..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ID)
	if err != nil {
		t.Fatalf("the generated schema does not compile: %v", err)
	}
	return s, doc.(map[string]any)
}

// instance converts YAML to what the validator takes.
func instance(t *testing.T, text string) any {
	t.Helper()
	var x any
	if err := yaml.Unmarshal([]byte(text), &x); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSchemaValidatesConfigs(t *testing.T) {
	t.Parallel()
	s, _ := compile(t, testKinds())
	const head = "version: 1\ntools:\n  - name: t\n    description: d\n"
	for _, tt := range []struct {
		name, config string
		valid        bool
	}{
		{"minimal", "version: 1\n", true},
		{"version 2", "version: 2\n", false},
		{"unknown top-level key", "version: 1\nsever: {}\n", false},
		{"alpha handler", head + "    handler:\n      kind: alpha\n      url: https://x\n      timeout: 2s\n", true},
		{"alpha without its required url", head + "    handler:\n      kind: alpha\n", false},
		{"alpha with beta's field", head + "    handler:\n      kind: alpha\n      url: u\n      query: q\n", false},
		{"alpha with a bad duration", head + "    handler:\n      kind: alpha\n      url: u\n      timeout: soon\n", false},
		{"beta handler", head + "    handler:\n      kind: beta\n      query: q\n      params: {a: '${{ args.a }}', b: [1]}\n", true},
		{"raw YAML", head + "    handler:\n      kind: beta\n      query: q\n      raw: {any: [thing, 1]}\n", true},
		{"unknown kind", head + "    handler:\n      kind: gamma\n", false},
		{"backend only", head + "    handler:\n      backend: db\n      query: q\n", true},
		{"neither kind nor backend", head + "    handler:\n      query: q\n", false},
		{"backend only, misspelled field", head + "    handler:\n      backend: db\n      qeury: q\n", false},
		{"beta backend", "version: 1\nbackends:\n  db:\n    kind: beta\n    dsn: x\n", true},
		{"backend with a tool's field", "version: 1\nbackends:\n  db:\n    kind: beta\n    dsn: x\n    query: q\n", false},
		{"alpha has no backends", "version: 1\nbackends:\n  a:\n    kind: alpha\n    url: u\n", false},
		{"args", head + "    args:\n      - {name: a, type: integer, minimum: 1, default: 2}\n    content: [{text: hi}]\n", true},
		{"arg type", head + "    args:\n      - {name: a, type: int}\n    content: [{text: hi}]\n", false},
		{"verbatim input schema", head + "    input_schema: {type: object, $defs: {x: {}}}\n    content: [{text: hi}]\n", true},
		{"resource", "version: 1\nresources:\n  - {uri: docs://a, name: a, text: hi}\n", true},
		{"resource without name", "version: 1\nresources:\n  - {uri: docs://a, text: hi}\n", false},
		{"environment references", "version: ${V}\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: a, type: '${T:-integer}', required: '${R}', minimum: '${MIN:-1}'}\n    content: [{text: hi}]\n", true},
		{"alpha timeout from the environment", head + "    handler:\n      kind: alpha\n      url: u\n      timeout: ${TIMEOUT:-2s}\n", true},
		{"a number that is not a reference", head + "    args:\n      - {name: a, minimum: lots}\n    content: [{text: hi}]\n", false},
		{"prompt message role", "version: 1\nprompts:\n  - {name: p, description: d, messages: [{role: system, text: x}]}\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) { wantValid(t, s, tt.config, tt.valid) })
	}
}

// wantValid checks whether the schema s accepts config.
func wantValid(t *testing.T, s *jsonschema.Schema, config string, valid bool) {
	t.Helper()
	if err := s.Validate(instance(t, config)); (err == nil) != valid {
		t.Errorf("valid = %v, want %v (%v)\n%s", err == nil, valid, err, config)
	}
}

// TestSchemaRules checks the groups declared on the config types (spec/rule)
// against the built-in kinds: the schema rejects what the loader rejects.
func TestSchemaRules(t *testing.T) {
	t.Parallel()
	s, _ := compile(t, builtin.Kinds())
	const head = "version: 1\ntools:\n  - name: t\n    description: d\n"
	const sql = head + "    handler:\n      backend: db\n"
	for _, tt := range []struct {
		name, config string
		valid        bool
	}{
		{"one content block", head + "    content: [{text: hi}]\n", true},
		{"two kinds of content", head + "    content: [{text: hi, image: {data: AA==, mime_type: image/png}}]\n", false},
		{"content of no kind", head + "    content: [{}]\n", false},
		{"args and input_schema", head + "    args: [{name: a}]\n    input_schema: {type: object}\n    content: [{text: hi}]\n", false},
		{"resource from text and blob", "version: 1\nresources:\n  - {uri: docs://a, name: a, text: hi, blob: AA==}\n", false},
		{"step with two actions", head + "    steps: [{sleep: 1s, log: {message: m}}]\n    content: [{text: hi}]\n", false},
		{"sql by backend", sql + "      query: SELECT 1\n", true},
		{"sql by backend, misspelled", sql + "      qeury: SELECT 1\n", false},
		{"sql query and exec", head + "    handler:\n      kind: sql\n      backend: db\n      query: SELECT 1\n      exec: DELETE FROM t\n", false},
		{"shell command and script", head + "    handler:\n      kind: shell\n      command: [ls]\n      script: ls\n", false},
		{"shell with neither", head + "    handler:\n      kind: shell\n      timeout: 1s\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) { wantValid(t, s, tt.config, tt.valid) })
	}
}

// TestSchemaDescriptions checks that Go doc comments become descriptions,
// for spec and for the kinds' configs.
func TestSchemaDescriptions(t *testing.T) {
	t.Parallel()
	_, doc := compile(t, testKinds())
	defs := doc["$defs"].(map[string]any)
	get := func(def, prop string) string {
		d, _ := defs[def].(map[string]any)
		p, _ := d["properties"].(map[string]any)
		x, _ := p[prop].(map[string]any)
		s, _ := x["description"].(string)
		return s
	}
	for _, tt := range []struct{ def, prop, want string }{
		{"Tool", "name", "Name the model calls the tool by"},
		{"Arg", "min_length", "MinLength of a string"},
		{"schema.AlphaConfig", "url", "URL to call."},
		{"schema.AlphaConfig", "kind", "Alpha does things."},
		{"schema.BetaBackend", "dsn", "DSN of the database."},
	} {
		if got := get(tt.def, tt.prop); !strings.Contains(got, tt.want) {
			t.Errorf("%s.%s: description %q, want it to contain %q", tt.def, tt.prop, got, tt.want)
		}
	}
}

// TestJSON checks that the embedded schema is the committed file, as JSON.
func TestJSON(t *testing.T) {
	t.Parallel()
	var x map[string]any
	if err := json.Unmarshal(JSON(), &x); err != nil || x["$id"] != ID {
		t.Errorf("JSON() is not the schema: %v", err)
	}
}

// TestExamplesValidate checks every example config against the committed
// schema, so that the schema never rejects what mcpgen accepts.
func TestExamplesValidate(t *testing.T) {
	t.Parallel()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(ID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ID)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range []string{"../examples/*.yaml", "../examples/*/*.yaml"} {
		m, _ := filepath.Glob(p)
		paths = append(paths, m...)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, ".test.yaml") || strings.HasSuffix(p, ".recorded.yaml") {
			continue // tests of a config, checked by TestTestsSchema
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(instance(t, string(data))); err != nil {
			t.Errorf("%s does not match the schema: %v", p, err)
		}
	}
}

// TestReferenceIsCurrent regenerates docs/reference.md from the schema and
// compares it with the committed file.
func TestReferenceIsCurrent(t *testing.T) {
	want, err := Reference(JSON())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../docs/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/reference.md is stale: run `go generate ./schema` and commit it\n(-committed +generated):\n%s",
			cmp.Diff(string(got), string(want)))
	}
}

// TestReferenceNamesEveryField checks that every property of every
// definition has a row in the reference.
func TestReferenceNamesEveryField(t *testing.T) {
	ref, err := Reference(JSON())
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(JSON(), &s); err != nil {
		t.Fatal(err)
	}
	for name, d := range s.Defs {
		d, _ := d.(map[string]any) // a definition may be the schema true
		props, _ := d["properties"].(map[string]any)
		for p := range props {
			if !bytes.Contains(ref, []byte("| `"+p+"`")) {
				t.Errorf("%s.%s has no row in the reference", name, p)
			}
		}
	}
}
