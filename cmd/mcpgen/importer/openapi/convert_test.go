package openapi

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// load reads a description given as text.
func loadText(t *testing.T, text string) *Document {
	t.Helper()
	path := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := Load(context.Background(), path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// yamlOf renders a node (a part of the config) as YAML text.
func yamlOf(t *testing.T, n *yaml.Node) string {
	t.Helper()
	out, err := encode(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func convertAll(t *testing.T, doc *Document) *Result {
	t.Helper()
	return Convert(doc, doc.Operations(), Options{Name: "api"}, nil)
}

func TestAuth(t *testing.T) {
	for _, tt := range []struct{ name, scheme, want string }{
		{"bearer", "{type: http, scheme: bearer}", "bearer: ${API_TOKEN}\n"},
		{"basic", "{type: http, scheme: basic}", "basic: {username: '${API_USERNAME}', password: '${API_PASSWORD}'}\n"},
		{"key in a header", "{type: apiKey, in: header, name: X-Key}", "api_key: {header: X-Key, value: '${API_API_KEY}'}\n"},
		{"key in the query", "{type: apiKey, in: query, name: key}", "api_key: {query: key, value: '${API_API_KEY}'}\n"},
		{"key in a cookie", "{type: apiKey, in: cookie, name: sid}", "api_key: {header: Cookie, value: 'sid=${API_API_KEY}'}\n"},
		{"client credentials", "{type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://id.example/token', scopes: {b: B, a: A}}}}",
			"oauth2:\n  token_url: https://id.example/token\n  client_id: ${API_CLIENT_ID}\n  client_secret: ${API_CLIENT_SECRET}\n  scopes: [a, b]\n"},
		{"authorization code", "{type: oauth2, flows: {authorizationCode: {authorizationUrl: 'https://id.example/a', tokenUrl: 'https://id.example/token', scopes: {}}}}",
			"bearer: ${API_TOKEN}\n"},
		{"digest", "{type: http, scheme: digest}", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := loadText(t, `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "https://api.example"}]
components: {securitySchemes: {s: `+tt.scheme+`}}
security: [{s: []}]
paths: {/x: {get: {responses: {"200": {description: ok}}}}}
`)
			res := convertAll(t, doc)
			got := ""
			if auth := get(res.Backends[1], "auth"); auth != nil {
				got = yamlOf(t, auth)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("auth (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSplitDescription reads $refs to other files, server variables,
// readOnly and writeOnly properties.
func TestSplitDescription(t *testing.T) {
	doc, err := Load(context.Background(), "testdata/split/openapi.yaml", LoadOptions{FileRefs: true})
	if err != nil {
		t.Fatal(err)
	}
	res := convertAll(t, doc)
	if got, want := get(res.Backends[1], "base_url").Value, "https://${API_TENANT:-demo}.notes.example/api/${API_VERSION:-v2}"; got != want {
		t.Errorf("base_url %s, want %s", got, want)
	}
	if !strings.Contains(res.Backends[0].HeadComment, "API_VERSION: one of v1, v2") {
		t.Errorf("backend comment %q does not list the variable's values", res.Backends[0].HeadComment)
	}
	want := map[string]string{
		"get_note": `# GET /notes/{id} — operationId getNote
name: get_note
description: Calls GET /notes/{id}.
input_schema:
  type: object
  properties:
    id:
      type: string
      maxLength: 40
      description: The note's id.
  required: [id]
output_schema:
  type: object
  properties:
    author:
      type: object
      properties:
        name:
          type: string
    id:
      type: string
    title:
      type: string
      minLength: 1
  required: [title]
annotations: {read_only: true}
handler:
  backend: api
  method: GET
  path: /notes/${{ args.id }}
`,
		"put_note": `# PUT /notes/{id} — operationId putNote
name: put_note
description: Calls PUT /notes/{id}.
input_schema:
  type: object
  properties:
    id:
      type: string
      maxLength: 40
      description: The note's id.
    author:
      type: object
      properties:
        name:
          type: string
        secret:
          type: string
    title:
      type: string
      minLength: 1
  required: [id, title]
annotations: {read_only: false, idempotent: true}
handler:
  backend: api
  method: PUT
  path: /notes/${{ args.id }}
  body:
    json:
      author: ${{ args.author }}
      title: ${{ args.title }}
`,
	}
	for _, tool := range res.Tools {
		if diff := cmp.Diff(want[tool.Name], yamlOf(t, tool.Node)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tool.Name, diff)
		}
	}
}

// TestSchemas: allOf merged, recursion cut with a note, depth bounded,
// oneOf kept below the root, nullable as a type list.
func TestSchemas(t *testing.T) {
	doc := loadText(t, `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /nodes:
    post:
      operationId: addNode
      requestBody:
        content:
          application/json:
            schema:
              allOf:
                - $ref: '#/components/schemas/Named'
                - type: object
                  required: [child]
                  properties:
                    child: {$ref: '#/components/schemas/Node'}
                    shape:
                      oneOf: [{type: string}, {type: integer, nullable: true}]
                    dims:
                      type: object
                      properties: {w: {type: integer}, h: {type: integer}}
                      oneOf: [{required: [w]}, {required: [h]}]
      responses: {"201": {description: ok}}
components:
  schemas:
    Named:
      type: object
      required: [name]
      properties: {name: {type: string, pattern: '^[a-z]+$'}}
    Node:
      type: object
      properties:
        next: {$ref: '#/components/schemas/Node'}
`)
	res := convertAll(t, doc)
	want := `type: object
properties:
  child:
    type: object
    properties:
      next:
        type: object
        description: 'Node again (recursive): not expanded'
  dims:
    type: object
    properties:
      h:
        type: integer
      w:
        type: integer
    oneOf:
      - required: [w]
      - required: [h]
  name:
    type: string
    pattern: ^[a-z]+$
  shape:
    oneOf:
      - type: string
      - type: [integer, "null"]
required: [child, name]
`
	if diff := cmp.Diff(want, yamlOf(t, get(res.Tools[0].Node, "input_schema"))); diff != "" {
		t.Errorf("input_schema (-want +got):\n%s", diff)
	}
}

// TestDepth: $refs nested deeper than the depth are described, not
// inlined.
func TestDepth(t *testing.T) {
	doc, err := Load(context.Background(), "testdata/split/openapi.yaml", LoadOptions{FileRefs: true})
	if err != nil {
		t.Fatal(err)
	}
	res := Convert(doc, doc.Operations(), Options{Name: "api", Depth: 1}, nil)
	author := yamlOf(t, get(get(get(res.Tools[0].Node, "output_schema"), "properties"), "author"))
	if want := "type: object\ndescription: 'Person: not expanded (nested too deep)'\n"; author != want {
		t.Errorf("author at depth 1:\n%s\nwant:\n%s", author, want)
	}
}

func TestNames(t *testing.T) {
	for _, tt := range []struct{ id, method, path, want string }{
		{"getPetById", "GET", "/pet/{id}", "get_pet_by_id"},
		{"repos/get-content", "GET", "/x", "repos_get_content"},
		{"listHTTPRoutes", "GET", "/x", "list_http_routes"},
		{"", "DELETE", "/store/order/{orderId}", "delete_store_order_order_id"},
		{"ünïcode", "GET", "/x", "n_code"},
		{strings.Repeat("a", 80), "GET", "/x", strings.Repeat("a", 64)},
	} {
		if got := toolName(tt.id, tt.method, tt.path); got != tt.want {
			t.Errorf("toolName(%q, %s, %s) = %q, want %q", tt.id, tt.method, tt.path, got, tt.want)
		}
	}
	ns := names{}
	got := []string{ns.unique("a"), ns.unique("a"), ns.unique("a_2"), ns.unique("a")}
	if diff := cmp.Diff([]string{"a", "a_2", "a_2_2", "a_3"}, got); diff != "" {
		t.Errorf("unique (-want +got):\n%s", diff)
	}
}

// TestDefaultName: a server's name reads as the API's name: a brand is
// one word, versions and "REST API" are left out.
func TestDefaultName(t *testing.T) {
	for title, want := range map[string]string{
		"GitHub v3 REST API":             "github",
		"GitHub's REST API":              "github",
		"Swagger Petstore - OpenAPI 3.0": "petstore",
		"OpenAI API":                     "openai",
		"Stripe API":                     "stripe",
		"Google Cloud Storage JSON API":  "google_cloud_storage",
		"The Kubernetes API v1.31":       "kubernetes",
		"API":                            "api",
		"":                               "api",
		"ünïcode title":                  "ncode_title",
		"PagerDuty REST API v2 (Events)": "pagerduty_events",
	} {
		doc := loadText(t, "openapi: 3.0.3\ninfo: {title: "+strconv.Quote(title)+", version: '1'}\npaths: {}\n")
		if got := DefaultName(doc); got != want {
			t.Errorf("DefaultName(%q) = %q, want %q", title, got, want)
		}
	}
}

// TestCollisions: tools named alike and arguments named alike get
// distinct names; the request still sends each where it belongs.
func TestCollisions(t *testing.T) {
	doc := loadText(t, `openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /a/{id}:
    post:
      operationId: do-it
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: id, in: header, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {id: {type: integer}}}
      responses: {"200": {description: ok}}
  /b:
    get: {operationId: doIt, responses: {"200": {description: ok}}}
`)
	res := convertAll(t, doc)
	if res.Tools[0].Name != "do_it" || res.Tools[1].Name != "do_it_2" {
		t.Errorf("tool names %s, %s", res.Tools[0].Name, res.Tools[1].Name)
	}
	want := `backend: api
method: POST
path: /a/${{ args.id }}
headers:
  X-Trace: ${{ args.x_trace }}
  id: ${{ args.header_id }}
body:
  json:
    id: ${{ args.body_id }}
`
	if diff := cmp.Diff(want, yamlOf(t, get(res.Tools[0].Node, "handler"))); diff != "" {
		t.Errorf("handler (-want +got):\n%s", diff)
	}
}

func TestFilter(t *testing.T) {
	doc, err := Load(context.Background(), "testdata/petstore-3.0.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"tags", Filter{Tags: []string{"STORE"}}, []string{"GET /store/inventory", "POST /store/order", "GET /store/order/{orderId}", "DELETE /store/order/{orderId}"}},
		{"operations", Filter{Operations: []string{"get*ById"}}, []string{"GET /pet/{petId}", "GET /store/order/{orderId}"}},
		{"tool names", Filter{Operations: []string{"delete_*"}}, []string{"DELETE /pet/{petId}", "DELETE /store/order/{orderId}", "DELETE /user/{username}"}},
		{"paths", Filter{Paths: []string{"/user/*"}}, []string{"POST /user/createWithArray", "POST /user/createWithList", "GET /user/login", "GET /user/logout", "GET /user/{username}", "PUT /user/{username}", "DELETE /user/{username}"}},
		{"paths across segments", Filter{Paths: []string{"/pet/**"}, Methods: []string{"post"}}, []string{"POST /pet/{petId}", "POST /pet/{petId}/uploadImage"}},
		{"all of them", Filter{Tags: []string{"pet"}, Methods: []string{"GET"}, Paths: []string{"/pet/find*"}}, []string{"GET /pet/findByStatus", "GET /pet/findByTags"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := tt.f.Select(doc.Operations())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range ops {
				got = append(got, o.Key())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"not a description", "hello: world\n", "neither `openapi: 3.x` nor `swagger: \"2.0\"`"},
		{"a missing $ref", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {/x: {get: {responses: {'200': {$ref: 'nope.yaml#/r'}}}}}\n", "nope.yaml"},
		{"not YAML", "openapi: [\n", "reading"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.yaml")
			os.WriteFile(path, []byte(tt.text), 0o644)
			_, err := Load(context.Background(), path, LoadOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestToolTags: operation tags become tool tags mcpgen accepts, once each.
func TestToolTags(t *testing.T) {
	long := strings.Repeat("Long Tag ", 10)
	n := toolTags([]string{"Pet Store", "pet-store", "", "Users", "ÜberTag", long})
	var got []string
	for _, c := range n.Content {
		got = append(got, c.Value)
	}
	want := []string{"pet_store", "users", "ber_tag", strings.TrimRight(snake(long)[:64], "_")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if toolTags(nil) != nil || toolTags([]string{"--"}) != nil {
		t.Error("no tags should give no tags key")
	}
}
