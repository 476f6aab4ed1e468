package openapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLoadURL reads a description over HTTP, with $refs relative to its
// URL, and resolves a relative server URL against it.
func TestLoadURL(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	defer srv.Close()
	doc, err := Load(context.Background(), srv.URL+"/split/openapi.yaml", LoadOptions{RemoteRefs: true, AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	res := convertAll(t, doc)
	if len(res.Tools) != 2 || get(get(get(res.Tools[0].Node, "output_schema"), "properties"), "author") == nil {
		t.Errorf("the $refs to other files were not followed:\n%s", yamlOf(t, res.Tools[0].Node))
	}
	doc = loadText(t, "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: /api/v3}]\npaths: {}\n")
	doc.Source.Scheme, doc.Source.Host, doc.Source.Path = "https", "docs.example", "/specs/openapi.yaml"
	if got := Convert(doc, nil, Options{Name: "api"}, nil).Backends[1]; get(got, "base_url").Value != "https://docs.example/api/v3" {
		t.Errorf("relative server URL: %s", yamlOf(t, got))
	}
	_, err = Load(context.Background(), srv.URL+"/missing.yaml", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("a missing URL: %v", err)
	}
}

// TestSwaggerYAML converts a Swagger 2.0 description written in YAML (its
// response codes are numbers to YAML), with a relative base path.
func TestSwaggerYAML(t *testing.T) {
	doc := loadText(t, `swagger: "2.0"
info: {title: Old API, version: "1"}
basePath: /v1
securityDefinitions:
  key: {type: apiKey, in: query, name: api_key}
security: [{key: []}]
paths:
  /items:
    post:
      operationId: addItem
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - {name: name, in: formData, type: string, required: true}
        - {name: tags, in: query, type: array, items: {type: string}, collectionFormat: csv}
      responses:
        200: {description: ok}
`)
	res := convertAll(t, doc)
	want := `name: add_item
description: Calls POST /items.
input_schema:
  type: object
  properties:
    tags:
      type: array
      items:
        type: string
    name:
      type: string
  required: [name]
annotations: {read_only: false, destructive: false}
handler:
  backend: api
  method: POST
  path: /items
  query:
    tags: ${{ args.tags }}
  query_style: comma
  body:
    form:
      name: ${{ args.name }}
`
	if got := yamlOf(t, res.Tools[0].Node); !strings.HasSuffix(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	backend := yamlOf(t, res.Backends[1])
	for _, s := range []string{"base_url: ${API_URL:-http://localhost}/v1", "api_key: {query: api_key, value: '${API_API_KEY}'}"} {
		if !strings.Contains(backend, s) {
			t.Errorf("backend lacks %q:\n%s", s, backend)
		}
	}
}

func TestTrim(t *testing.T) {
	for _, tt := range []struct {
		in   string
		max  int
		want string
	}{
		{"  a\n  b\n\n\n c  ", 100, "a b\n\nc"},
		{"One sentence. Another one that is long.", 20, "One sentence."},
		{"words words words words", 12, "words words…"},
	} {
		if got := trim(tt.in, tt.max); got != tt.want {
			t.Errorf("trim(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
