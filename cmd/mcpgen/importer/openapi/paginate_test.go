package openapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportPagination: a list operation whose response links to the next
// page, or names the next cursor that a query parameter takes back,
// imports to a tool that follows the pages; a documented 304 is a
// success; header parameters get snake-case names.
func TestImportPagination(t *testing.T) {
	doc := loadText(t, `openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /repos:
    get:
      operationId: listRepos
      parameters:
        - {name: per_page, in: query, schema: {type: integer}}
      responses:
        "200":
          description: ok
          headers: {Link: {schema: {type: string}}}
          content: {application/json: {schema: {type: array, items: {type: object}}}}
  /events:
    get:
      operationId: listEvents
      parameters:
        - {name: cursor, in: query, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: {type: array, items: {type: object}}
                  next_cursor: {type: string}
  /repos/{id}:
    get:
      operationId: getRepo
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: If-None-Match, in: header, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
        "304": {description: not modified}
`)
	res := convertAll(t, doc)
	for i, want := range []string{`backend: api
method: GET
path: /events
query:
  cursor: ${{ args.cursor }}
pagination: {mode: follow, next: '${{ response.body.next_cursor }}', cursor_param: cursor, items: '${{ response.body.data }}'}
`, `backend: api
method: GET
path: /repos
query:
  per_page: ${{ args.per_page }}
pagination: {mode: follow, link: next, items: '${{ response.body }}'}
`, `backend: api
method: GET
path: /repos/${{ args.id }}
headers:
  If-None-Match: ${{ args.if_none_match }}
success: [200-299, "304"]
`} {
		if diff := cmp.Diff(want, yamlOf(t, get(res.Tools[i].Node, "handler"))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", res.Tools[i].Name, diff)
		}
	}
	if get(res.Tools[0].Node, "output_schema") != nil {
		t.Error("a tool that joins pages keeps the one page's output_schema")
	}
}
