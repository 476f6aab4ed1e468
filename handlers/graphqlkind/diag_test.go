package graphqlkind_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// diagnose builds config beside testdata's files and returns its
// diagnostics, the directory's path replaced by DIR.
func diagnose(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files(t, nil) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ds := handlertest.DiagnoseFile(t, registry(), path)
	return strings.ReplaceAll(ds.Error(), dir+string(filepath.Separator), "DIR/")
}

func TestDiagnostics(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nbackends:\n  dir: {kind: graphql, base_url: 'http://127.0.0.1:1/graphql', schema: schema.graphql}\ntools:\n"
	for _, tt := range []struct{ name, tools, want string }{
		{"an unknown field, inline", `  - name: t
    description: d
    handler:
      backend: dir
      document: 'query { user(id: "1") { nmae } }'
`, `DIR/mcpgen.yaml:9:42: tools[0].handler.document: Cannot query field "nmae" on type "User". Did you mean "name"?`},
		{"an unknown field in a file", "  - {name: t, description: d, handler: {backend: dir, file: ops/bad.graphql}}\n",
			`DIR/mcpgen.yaml:5:61: tools[0].handler.file: ops/bad.graphql:3:5: Cannot query field "nmae" on type "User". Did you mean "name"?`},
		{"an argument of the wrong type", `  - name: t
    description: d
    args: [{name: limit, type: string}, {name: role}]
    handler: {backend: dir, file: ops/misc.graphql, operation: Users}
`, `DIR/mcpgen.yaml:8:35: tools[0].handler.file: ops/misc.graphql:1:13: argument "limit" is of type string, but $limit is Int, which takes an integer`},
		{"a variable without an argument", `  - name: t
    description: d
    args: [{name: role}]
    handler: {backend: dir, file: ops/misc.graphql, operation: Users}
`, `DIR/mcpgen.yaml:8:35: tools[0].handler.file: ops/misc.graphql:1:13: variable $limit takes the argument "limit", which the tool does not declare; declare it, or map the variable under variables`},
		{"an optional argument for a required variable", `  - name: t
    description: d
    args: [{name: id}]
    handler: {backend: dir, file: ops/user.graphql}
`, `argument "id" is optional, but $id is ID!: a call without it would fail; make the argument required or give it a default`},
		{"an unknown variable", `  - name: t
    description: d
    handler:
      backend: dir
      document: 'query($id: ID!) { user(id: $id) { name } }'
      variables: {idd: x}
`, `DIR/mcpgen.yaml:10:24: tools[0].handler.variables.idd: the operation has no variable $idd; did you mean "id"?`},
		{"an expression over an unknown argument", `  - name: t
    description: d
    args: [{name: who, required: true}]
    handler:
      backend: dir
      document: 'query($id: ID!) { user(id: $id) { name } }'
      variables: {id: '${{ args.whom }}'}
`, `DIR/mcpgen.yaml:11:33: tools[0].handler.variables.id: expr: unknown field whom; did you mean "who"?`},
		{"several operations, none named", "  - {name: t, description: d, handler: {backend: dir, file: ops/misc.graphql}}\n",
			`the document holds 4 operations (Users, Partial, Fatal, Whoami): name the one to run`},
		{"an unknown operation", "  - {name: t, description: d, handler: {backend: dir, file: ops/misc.graphql, operation: User}}\n",
			`tools[0].handler.operation: the document has no operation "User"; did you mean "Users"?`},
		{"a subscription", `  - name: t
    description: d
    handler: {backend: dir, document: 'subscription { x }'}
`, `Schema does not support operation type "subscription"`},
		{"a syntax error", `  - name: t
    description: d
    handler:
      backend: dir
      document: |
        query {
          user(id: "1") { name
`, `DIR/mcpgen.yaml:12:1: tools[0].handler.document: Expected Name, found <EOF>`},
		{"no schema", "  - {name: t, description: d, handler: {kind: graphql, base_url: 'http://127.0.0.1:1', document: '{ x }'}}\n",
			"a graphql handler needs the API's schema"},
		{"a schema on a tool with a backend", "  - {name: t, description: d, handler: {backend: dir, schema: schema.graphql, document: '{ whoami }'}}\n",
			"schema belongs to the backend"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := diagnose(t, head+tt.tools); !strings.Contains(got, tt.want) {
				t.Errorf("got:\n%s\nwant it to hold:\n%s", got, tt.want)
			}
		})
	}
}

func TestSchemaDiagnostics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("bad.graphql", "type Query {\n  user: Usr\n}\n")
	write("bad.json", `{"data": {"__schema": {"types": []}}}`)
	for _, tt := range []struct{ file, want string }{
		{"bad.graphql", `backends.dir.schema: bad.graphql:2:9: Undefined type Usr.`},
		{"bad.json", "bad.json: not an introspection result: no __schema with a queryType"},
		{"missing.graphql", "cannot read missing.graphql:"},
	} {
		config := "version: 1\nbackends:\n  dir: {kind: graphql, base_url: 'http://127.0.0.1:1/graphql', schema: " + tt.file + "}\n"
		write("mcpgen.yaml", config)
		got := handlertest.DiagnoseFile(t, registry(), filepath.Join(dir, "mcpgen.yaml")).Error()
		if !strings.Contains(got, "mcpgen.yaml:3:") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got %s, want %s", tt.file, got, tt.want)
		}
	}
}
