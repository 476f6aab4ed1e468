package sqlkind_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// pageTool is a config whose tool's handler fields start at line 10,
// column 7, and whose tool gives args from line 7.
func pageTool(args, handler string) string {
	return "version: 1\nbackends:\n  shop: {kind: sql, driver: sqlite, dsn: \":memory:\"}\ntools:\n  - name: t\n    description: d\n" +
		"    args: " + args + "\n    handler:\n      backend: shop\n      " + handler + "\n"
}

func TestPageDiagnostics(t *testing.T) {
	t.Parallel()
	cases := map[string][2]string{}
	for _, tt := range []struct{ name, args, handler, want string }{
		{"own limit", "[]", "query: SELECT id FROM t ORDER BY id LIMIT 5\n      page: {offset: true}",
			"mcpgen.yaml:10:43: tools[0].handler.query: the query has its own LIMIT; page limits each page itself: remove it"},
		{"own offset in a block", "[]", "query: |\n        SELECT id FROM t\n        ORDER BY id OFFSET 5\n      page: {offset: true}",
			"mcpgen.yaml:12:21: tools[0].handler.query: the query has its own OFFSET"},
		{"fetch", "[]", "query: SELECT id FROM t ORDER BY id FETCH FIRST 5 ROWS ONLY\n      page: {offset: true}",
			"mcpgen.yaml:10:43: tools[0].handler.query: the query has its own FETCH"},
		{"keyset and order by", "[]", "query: SELECT id FROM t ORDER BY id\n      page: {keyset: [id]}",
			"mcpgen.yaml:10:31: tools[0].handler.query: page orders the rows by the keyset itself (ORDER BY id): remove this ORDER BY"},
		{"offset without order", "[]", "query: SELECT id FROM t\n      page: {offset: true}",
			"mcpgen.yaml:10:14: tools[0].handler.query: offset pages need the query's ORDER BY"},
		{"unknown key", "[]", "query: SELECT id, name FROM t\n      page: {keyset: [name, idd]}",
			"mcpgen.yaml:11:29: tools[0].handler.page.keyset[1]: idd is not a column of the query's result"},
		{"key not a name", "[]", "query: SELECT id FROM t\n      page: {keyset: [\"id; DROP TABLE t\"]}",
			`mcpgen.yaml:11:23: tools[0].handler.page.keyset[0]: "id; DROP TABLE t" is not a column name`},
		{"key quoted", "[]", "query: SELECT id FROM t\n      page: {keyset: ['\"id\"']}",
			`tools[0].handler.page.keyset[0]: "\"id\"" is not a column name`},
		{"key twice", "[]", "query: SELECT id FROM t\n      page: {keyset: [id, id desc]}",
			"tools[0].handler.page.keyset[1]: column id is in the keyset twice"},
		{"exec", "[]", "exec: DELETE FROM t\n      page: {keyset: [id]}",
			"mcpgen.yaml:11:13: tools[0].handler.page: page is for a tool with a single `query`"},
		{"statements", "[]", "statements: [{query: SELECT 1}]\n      page: {keyset: [id]}",
			"tools[0].handler.page: page is for a tool with a single `query`"},
		{"one row", "[]", "query: SELECT id FROM t\n      one_row: true\n      page: {keyset: [id]}",
			"tools[0].handler.one_row: one_row returns one row: it cannot be paged"},
		{"max rows", "[]", "query: SELECT id FROM t\n      max_rows: 5\n      page: {keyset: [id]}",
			"tools[0].handler.max_rows: a paged tool returns page.size rows a call"},
		{"no mode", "[]", "query: SELECT id FROM t\n      page: {size: 5}",
			"mcpgen.yaml:11:13: tools[0].handler.page: give exactly one of keyset, offset"},
		{"both modes", "[]", "query: SELECT id FROM t ORDER BY id\n      page: {keyset: [id], offset: true}",
			"give exactly one of keyset, offset"},
		{"max size", "[]", "query: SELECT id FROM t\n      page: {keyset: [id], size: 100, max_size: 20}",
			"tools[0].handler.page.max_size: must be from page.size (100) to 10000"},
		{"size", "[]", "query: SELECT id FROM t\n      page: {keyset: [id], size: 20000}",
			"tools[0].handler.page.size: must be from 1 to 10000"},
		{"not a query", "[]", "query: EXPLAIN SELECT id FROM t\n      page: {keyset: [id]}",
			"mcpgen.yaml:10:14: tools[0].handler.query: EXPLAIN cannot be paged"},
		{"locks", "[]", "query: SELECT id FROM t ORDER BY id FOR UPDATE\n      read_only: false\n      page: {offset: true}",
			"mcpgen.yaml:10:43: tools[0].handler.query: a paged query cannot lock rows (FOR UPDATE)"},
		{"two statements", "[]", "query: SELECT id FROM t; SELECT 2\n      read_only: false\n      page: {keyset: [id]}",
			"mcpgen.yaml:10:30: tools[0].handler.query: a paged query is one statement"},
		{"cursor argument", "[{name: cursor, type: integer}]", "query: SELECT id FROM t\n      page: {keyset: [id]}",
			"tools[0].handler.page: the tool declares a cursor argument that is not of type string"},
		{"limit argument", "[{name: limit}]", "query: SELECT id FROM t\n      page: {keyset: [id], max_size: 100}",
			"tools[0].handler.page: the tool declares a limit argument that is not of type integer"},
		{"reserved parameter", "[]", "query: SELECT id FROM t WHERE id > :mcpgen_page_x\n      params: {mcpgen_page_x: 1}\n      page: {keyset: [id]}",
			"tools[0].handler.params.mcpgen_page_x: parameters starting with mcpgen_page_ are the pager's"},
	} {
		cases[tt.name] = [2]string{pageTool(tt.args, tt.handler), tt.want}
	}
	handlertest.WantDiagnostics(t, registry(), cases)
}

// TestPageAccepted lists paged queries that must load: what looks like a
// clause of the query but is not (inside parentheses, a literal, a
// comment, a placeholder) and keys the query names only through *.
func TestPageAccepted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, args, handler string }{
		{"star", "[]", "query: SELECT * FROM t\n      page: {keyset: [whatever]}"},
		{"closing semicolon", "[]", "query: \"SELECT id FROM t;  \"\n      page: {keyset: [id]}"},
		{"inner order and limit", "[]", "query: SELECT id, (SELECT x FROM u ORDER BY x LIMIT 1) AS x, row_number() OVER (ORDER BY id) AS n FROM t\n      page: {keyset: [id]}"},
		{"words in literals", "[]", "query: \"SELECT id, 'ORDER BY LIMIT' AS \\\"limit\\\" FROM t -- LIMIT 5\"\n      page: {keyset: [id]}"},
		{"placeholder named limit", "[{name: n, type: integer}]", "query: SELECT id FROM t WHERE id > :limit ORDER BY id\n      params: {limit: \"${{ args.n }}\"}\n      page: {offset: true}"},
		{"quoted key", "[]", "query: 'SELECT \"Id\" FROM t'\n      page: {keyset: [Id desc]}"},
		{"cursor declared", "[{name: cursor, description: the next page}]", "query: SELECT id FROM t\n      page: {keyset: [id], size: 10, max_size: 100}"},
		{"with", "[]", "query: WITH x AS (SELECT id FROM t ORDER BY id LIMIT 9) SELECT id FROM x\n      page: {keyset: [id]}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if ds := handlertest.Diagnose(t, registry(), pageTool(tt.args, tt.handler)); ds.Errors() > 0 {
				t.Errorf("got\n%v", ds)
			}
		})
	}
}

// TestPageOutputSchema: a paged tool's output schema must allow
// nextCursor.
func TestPageOutputSchema(t *testing.T) {
	t.Parallel()
	const schema = `
    output_schema:
      type: object
      additionalProperties: false
      properties: {columns: {}, rows: {}, row_count: {}, truncated: {}%s}`
	cfg := pageTool("[]", "query: SELECT id FROM t\n      page: {keyset: [id]}")
	ds := handlertest.Diagnose(t, registry(), strings.Replace(cfg, "\n    handler:", strings.Replace(schema, "%s", "", 1)+"\n    handler:", 1))
	if want := `mcpgen.yaml:10:29: tools[0].output_schema.additionalProperties: the result has "nextCursor", which is not allowed`; !strings.Contains(ds.Error(), want) {
		t.Errorf("got\n%v\nwant %q", ds, want)
	}
	ds = handlertest.Diagnose(t, registry(), strings.Replace(cfg, "\n    handler:", strings.Replace(schema, "%s", ", nextCursor: {type: string}", 1)+"\n    handler:", 1))
	if ds.Errors() > 0 {
		t.Errorf("got\n%v", ds)
	}
}

// TestPageArguments: a paged tool lists the cursor argument, and limit
// with max_size, beside its own; it stays announced as read-only.
func TestPageArguments(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), pageTool("[{name: q, required: true}]",
		"query: SELECT id FROM t WHERE name = :q\n      params: {q: \"${{ args.q }}\"}\n      page: {keyset: [id], size: 10, max_size: 200}"), nil)
	tools, err := handlertest.Client(t, srv).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tool := tools.Tools[0]
	raw, _ := json.Marshal(tool.InputSchema)
	var in struct {
		Properties map[string]map[string]any
		Required   []string
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"q":      {"type": "string"},
		"cursor": {"type": "string", "maxLength": 4096.0},
		"limit":  {"type": "integer", "minimum": 1.0, "maximum": 200.0},
	}
	for name, props := range want {
		for k, v := range props {
			if got := in.Properties[name][k]; got != v {
				t.Errorf("%s.%s = %v, want %v (schema %s)", name, k, got, v, raw)
			}
		}
	}
	if diff := cmp.Diff([]string{"q"}, in.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	if a := tool.Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("annotations %+v, want read-only", a)
	}
}
