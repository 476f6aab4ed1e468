package graphqlkind_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/graphqlkind"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func registry() *handlers.Registry { return handlers.NewRegistry(graphqlkind.Kind()) }

func readAll(r *http.Request) (string, error) {
	data, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(data))
	return string(data), err
}

// example is the directory of examples/graphql, whose schema the test
// server serves.
const example = "../../examples/graphql/"

// files are the example's and testdata's schema and operations, written beside a config.
func files(t testing.TB, extra map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, path := range map[string]string{
		"schema.graphql":     example + "schema.graphql",
		"ops/user.graphql":   example + "operations/user.graphql",
		"ops/create.graphql": example + "operations/create_user.graphql",
		"ops/misc.graphql":   "testdata/ops/misc.graphql",
		"ops/bad.graphql":    "testdata/ops/bad.graphql",
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(data)
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// config is a config whose backend "dir" is the directory at url (with
// schema), then tools.
func config(url, schema, tools string) string {
	return "version: 1\nbackends:\n  dir:\n    kind: graphql\n    base_url: " + url + "/graphql\n" +
		"    schema: " + schema + "\n    auth:\n      bearer: " + testToken + "\n    retries: {max: 0}\ntools:\n" + tools
}

const tools = `  - name: get_user
    description: One user.
    handler: {backend: dir, file: ops/user.graphql}
  - name: create_user
    description: Adds a user.
    handler: {backend: dir, file: ops/create.graphql}
  - name: list_users
    description: Users.
    args:
      - {name: limit, type: integer, default: 1}
      - {name: role, enum: [ADMIN, MEMBER]}
    handler: {backend: dir, file: ops/misc.graphql, operation: Users}
  - name: partial
    description: Partial data.
    handler: {backend: dir, file: ops/misc.graphql, operation: Partial}
  - name: fatal
    description: No data.
    handler: {backend: dir, file: ops/misc.graphql, operation: Fatal}
  - name: whoami
    description: The caller.
    handler: {backend: dir, file: ops/misc.graphql, operation: Whoami}
  - name: user_name
    description: A user's name, inline.
    args: [{name: who, required: true}]
    handler:
      backend: dir
      document: 'query Name($id: ID!) { user(id: $id) { name } }'
      variables: {id: '${{ args.who }}'}
      result: ${{ data.user.name }}
`

func TestCall(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	for _, schema := range []string{"schema.graphql", "schema.json"} {
		srv := handlertest.Build(t, registry(), config(d.URL, schema, tools), files(t, map[string]string{"schema.json": d.introspection(t)}))
		for _, tt := range []struct {
			name, tool, args string
			wantErr          bool
			want             string
		}{
			{"query with a fragment", "get_user", `{"id": "1"}`, false, `{"user":{"id":"1","name":"Ann","role":"ADMIN"}}`},
			{"a failed field with nothing else is an error", "get_user", `{"id": "99"}`, true, "GraphQL error: no user 99 (at user)"},
			{"mutation with an input object", "create_user", `{"input": {"name": "Cy", "tags": ["new"]}}`, false,
				`"name":"Cy","role":"MEMBER"}}`},
			{"argument defaults and enums", "list_users", `{"role": "MEMBER"}`, false, `{"users":[{"name":"Bob"}]}`},
			{"partial data comes with a note", "partial", `{}`, false,
				"GraphQL reported errors, and the fields they name are null: broken on purpose (at broken)"},
			{"no data", "fatal", `{}`, true, "GraphQL error: fatal on purpose (at fatal)"},
			{"the credentials are sent, and masked when echoed", "whoami", `{}`, false, `{"whoami":"Bearer ****"}`},
			{"mapped variables and an extracted result", "user_name", `{"who": "2"}`, false, `{"value":"Bob"}`},
		} {
			t.Run(schema+"/"+tt.name, func(t *testing.T) {
				res := handlertest.Call(t, context.Background(), srv, tt.tool, tt.args)
				got := handlertest.Text(res)
				if res.IsError != tt.wantErr {
					t.Fatalf("isError = %v, want %v: %s", res.IsError, tt.wantErr, got)
				}
				if !tt.wantErr && !strings.Contains(got, tt.want) {
					data, _ := json.Marshal(res.StructuredContent)
					got = string(data) + "\n" + got
				}
				if !strings.Contains(got, tt.want) {
					t.Errorf("got %s\nwant it to hold %s", got, tt.want)
				}
			})
		}
	}
}

func TestRequest(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	srv := handlertest.Build(t, registry(), config(d.URL, "schema.graphql", tools), files(t, nil))
	res := handlertest.Call(t, context.Background(), srv, "list_users", `{"limit": 5}`)
	if res.IsError {
		t.Fatal(handlertest.Text(res))
	}
	var body struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
	}
	if err := json.Unmarshal([]byte(d.lastBody(t)), &body); err != nil {
		t.Fatal(err)
	}
	misc, _ := os.ReadFile("testdata/ops/misc.graphql")
	// the optional role, not passed, is left out; the whole document goes
	want := map[string]any{"limit": 5.0}
	if diff := cmp.Diff(want, body.Variables); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
	if body.OperationName != "Users" || body.Query != string(misc) {
		t.Errorf("operationName %q, query %q", body.OperationName, body.Query)
	}
	dry, err := srv.DryRun(context.Background(), "get_user", []byte(`{"id": "1"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(dry, "POST "+d.URL+"/graphql\n") || strings.Contains(dry, testToken) ||
		!strings.Contains(dry, `"variables":{"id":"1"}`) {
		t.Errorf("dry run:\n%s", dry)
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	for _, tt := range []struct{ name, config, want string }{
		{"a proxy's error page", strings.Replace(config(d.URL, "schema.graphql", tools), "/graphql", "/down", 1),
			"HTTP 502 Bad Gateway: <html><body><h1>502 Bad Gateway</h1></body></html>"},
		{"GraphQL errors of a refused request", strings.Replace(config(d.URL, "schema.graphql", tools), testToken, "wrong-token", 1),
			"HTTP 401, GraphQL error: invalid token [UNAUTHENTICATED]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := handlertest.Build(t, registry(), tt.config, files(t, nil))
			res := handlertest.Call(t, context.Background(), srv, "whoami", `{}`)
			if got := handlertest.Text(res); !res.IsError || got != tt.want {
				t.Errorf("isError=%v %q, want %q", res.IsError, got, tt.want)
			}
		})
	}
}

func TestInputSchemaAndHints(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	srv := handlertest.Build(t, registry(), config(d.URL, "schema.graphql", tools), files(t, nil))
	list, err := handlertest.Client(t, srv).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range list.Tools {
		byName[tl.Name] = tl
	}
	var got map[string]any
	data, _ := json.Marshal(byName["create_user"].InputSchema)
	_ = json.Unmarshal(data, &got)
	want := map[string]any{"type": "object", "additionalProperties": false, "required": []any{"input"},
		"properties": map[string]any{"input": map[string]any{
			"type": "object", "description": "The user to add... (GraphQL NewUser!)", "additionalProperties": false,
			"required": []any{"name"},
			"properties": map[string]any{
				"name": map[string]any{"type": "string", "description": "Full name."},
				"role": map[string]any{"type": "string", "enum": []any{"ADMIN", "MEMBER"}, "default": "MEMBER",
					"description": "What a user may do."},
				"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			}}}}
	want["properties"].(map[string]any)["input"].(map[string]any)["description"] = "GraphQL NewUser!"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("create_user input schema (-want +got):\n%s", diff)
	}
	if desc := byName["get_user"].InputSchema.(map[string]any)["properties"].(map[string]any)["id"].(map[string]any)["description"]; desc != "The user to look up. (GraphQL ID!)" {
		t.Errorf("the variable's comment is not its description: %v", desc)
	}
	if a := byName["get_user"].Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("a query is not read-only: %+v", a)
	}
	if a := byName["create_user"].Annotations; a == nil || a.ReadOnlyHint {
		t.Errorf("a mutation is read-only: %+v", a)
	}
}
