package sqlkind_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const seed = `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Alice', 'Paris'), (2, 'Bob', NULL), (3, 'Carol', 'Oslo, "North"');
`

// shop is a config header with an in-memory SQLite database created by seed.sql.
const shop = `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: ":memory:", init: seed.sql}
`

func buildShop(t *testing.T, tools string) *runtime.Server {
	t.Helper()
	return handlertest.Build(t, registry(), shop+tools, map[string]string{"seed.sql": seed})
}

func TestSuite(t *testing.T) {
	tool := func(handler string) string {
		return shop + "tools:\n  - name: t\n    description: suite\n    handler: {backend: shop, " + handler + "}\n"
	}
	forever := `"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"`
	handlertest.Run(t, handlertest.Suite{
		Registry: registry(),
		Files:    map[string]string{"seed.sql": seed},
		Hang:     tool("query: " + forever),
		Timeout:  tool("query: " + forever + ", timeout: 200ms"),
		Large:    tool("query: SELECT * FROM customers, max_rows: 2"),
		Fail:     tool("query: SELECT * FROM nowhere"),
		FailText: "no such table: nowhere",
	})
}

func TestFormats(t *testing.T) {
	t.Parallel()
	srv := buildShop(t, `tools:
  - {name: table, description: d, handler: {backend: shop, query: "SELECT id, name, city FROM customers ORDER BY id"}}
  - {name: csv, description: d, handler: {backend: shop, query: "SELECT id, name, city FROM customers ORDER BY id", format: csv}}
  - {name: json, description: d, handler: {backend: shop, query: "SELECT id, name, city FROM customers ORDER BY id", format: json, max_rows: 2}}
  - {name: exec, description: d, handler: {backend: shop, exec: "UPDATE customers SET city = 'Rome' WHERE id < 3"}}
`)
	for _, tt := range []struct{ tool, want string }{
		{"table", "id | name  | city\n---+-------+--------------\n1  | Alice | Paris\n2  | Bob   | NULL\n3  | Carol | Oslo, \"North\"\n(3 rows)"},
		{"csv", "id,name,city\n1,Alice,Paris\n2,Bob,\n3,Carol,\"Oslo, \"\"North\"\"\"\n(3 rows)"},
		{"json", `[{"id":1,"name":"Alice","city":"Paris"},{"id":2,"name":"Bob","city":null}]` +
			"\n(truncated: showing the first 2 rows; there are more. Narrow the query or raise max_rows.)"},
		{"exec", "2 rows affected"},
	} {
		res := handlertest.Call(t, context.Background(), srv, tt.tool, `{}`)
		if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.tool, diff)
		}
	}
}

func TestParams(t *testing.T) {
	t.Parallel()
	srv := buildShop(t, `tools:
  - name: list
    description: customers, a page at a time
    args: [{name: limit, type: integer}, {name: city}]
    handler:
      backend: shop
      query: SELECT id FROM customers WHERE (:city IS NULL OR city = :city) ORDER BY id LIMIT :limit
      params: {limit: "${{ args.limit ?? 2 }}", city: "${{ args.city }}"}
`)
	for _, tt := range []struct{ args, want string }{
		{`{}`, "id\n--\n1\n2\n(2 rows)"},
		{`{"limit": 5}`, "id\n--\n1\n2\n3\n(3 rows)"},
		{`{"city": "Paris"}`, "id\n--\n1\n(1 row)"},
	} {
		res := handlertest.Call(t, context.Background(), srv, "list", tt.args)
		if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, tool, want string }{
		{"missing parameter", "query: \"SELECT :id, :other\"\n      params: {id: 1}",
			"mcpgen.yaml:10:27: tools[0].handler.query: placeholder :other has no parameter; add params.other"},
		{"missing parameter in a block", "query: |\n        SELECT :id,\n          :other\n      params: {id: 1}",
			"mcpgen.yaml:12:11: tools[0].handler.query: placeholder :other has no parameter; add params.other"},
		{"unused parameter", "query: SELECT :id\n      params: {id: 1, extra: 2}",
			`tools[0].handler.params.extra: parameter "extra" is not used by any statement`},
		{"bad expression", "query: SELECT :id\n      params: {id: \"${{ args.idd }}\"}", `tools[0].handler.params.id: expr: unknown field idd; did you mean "id"?`},
		{"spliced expression", "query: SELECT * FROM t WHERE id = ${{ args.id }}",
			"tools[0].handler.query: an expression cannot be spliced into SQL; write a :name placeholder"},
		{"bare placeholder", "query: SELECT * FROM t WHERE id = ?", "mcpgen.yaml:10:41: tools[0].handler.query: a bare ? is a positional placeholder"},
		{"two statements", "query: SELECT 1\n      exec: DELETE FROM t", "tools[0].handler.exec: give exactly one of query, exec, statements; found query and exec"},
		{"read-only exec", "exec: DELETE FROM t\n      read_only: true", "tools[0].handler.read_only: a read-only handler cannot have exec statements"},
		{"format", "query: SELECT 1\n      format: xml", `tools[0].handler.format: expected one of table, csv, json, got "xml"`},
		{"statement shape", "statements: [{query: SELECT 1, exec: SELECT 2}]", "tools[0].handler.statements[0].exec: give exactly one of query, exec; found query and exec"},
		{"empty statement", "query: ''", "tools[0].handler.query: the statement is empty"},
		{"no statements", "statements: []", "tools[0].handler.statements: give at least one statement"},
		{"unknown field", "query: SELECT 1\n      max_row: 3", `unknown field "max_row"; did you mean "max_rows"?`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := "version: 1\nbackends:\n  shop: {kind: sql, driver: sqlite, dsn: \":memory:\"}\ntools:\n  - name: t\n    description: d\n    args: [{name: id}]\n    handler:\n      backend: shop\n      " + tt.tool + "\n"
			ds := handlertest.Diagnose(t, registry(), cfg)
			if !strings.Contains(ds.Error(), tt.want) {
				t.Errorf("got\n%v\nwant a diagnostic containing %q", ds, tt.want)
			}
		})
	}
}

func TestBackendDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, backend, want string }{
		{"driver", "{kind: sql, driver: oracle, dsn: x}", `backends.db.driver: expected one of sqlite, postgres, mysql, got "oracle"`},
		{"init elsewhere", "{kind: sql, driver: postgres, dsn: \"postgres://localhost/x\", init: seed.sql}", "backends.db.init: init is for sqlite"},
		{"missing init", "{kind: sql, driver: sqlite, dsn: x.db, init: nope.sql}", "backends.db.init: cannot read the init script"},
		{"device database", "{kind: sql, driver: sqlite, dsn: /dev/zero}", "backends.db.dsn: /dev/zero is not a regular file"},
		{"device init", "{kind: sql, driver: sqlite, dsn: x.db, init: /dev/zero}", "backends.db.init: cannot read the init script: not a regular file (a character device)"},
		{"postgres dsn", "{kind: sql, driver: postgres, dsn: \"postgres://h:notaport/x\"}", "backends.db.dsn: invalid postgres DSN"},
		{"mysql dsn", "{kind: sql, driver: mysql, dsn: \"nonsense\"}", "backends.db.dsn: invalid mysql DSN"},
		{"pool", "{kind: sql, driver: sqlite, dsn: x.db, max_open: -1}", "backends.db.max_open: must not be negative"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := handlertest.Diagnose(t, registry(), "version: 1\nbackends:\n  db: "+tt.backend+"\n")
			if !strings.Contains(ds.Error(), tt.want) {
				t.Errorf("got\n%v\nwant a diagnostic containing %q", ds, tt.want)
			}
		})
	}
}

func TestAnnotations(t *testing.T) {
	t.Parallel()
	tools := `tools:
  - {name: read, description: d, handler: {backend: shop, query: SELECT 1}}
  - {name: write, description: d, handler: {backend: shop, exec: "DELETE FROM customers"}}
`
	cs := handlertest.Client(t, buildShop(t, tools))
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	want := map[string]*mcp.ToolAnnotations{
		"read":  {ReadOnlyHint: true},
		"write": {ReadOnlyHint: false, DestructiveHint: &yes},
	}
	for _, tl := range list.Tools {
		if diff := cmp.Diff(want[tl.Name], tl.Annotations); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tl.Name, diff)
		}
	}
	_ = no
	ds := handlertest.Diagnose(t, registry(), shop+`tools:
  - name: write
    description: d
    annotations: {destructive: false, read_only: true}
    handler: {backend: shop, exec: "DELETE FROM customers"}
`)
	for _, w := range []string{"warning: tools[0].annotations.destructive: destructive: false contradicts the handler",
		"warning: tools[0].annotations.read_only: read_only: true contradicts the handler, which writes"} {
		if !strings.Contains(ds.Error(), w) {
			t.Errorf("got\n%v\nwant %q", ds, w)
		}
	}
}

func TestResourceTemplate(t *testing.T) {
	t.Parallel()
	srv := buildShop(t, `resource_templates:
  - uri_template: db://customers/{id}
    name: customer
    handler:
      backend: shop
      query: SELECT id, name, city FROM customers WHERE id = :id
      params: {id: "${{ args.id }}"}
      one_row: true
`)
	cs := handlertest.Client(t, srv)
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "db://customers/3"})
	if err != nil {
		t.Fatal(err)
	}
	want := []*mcp.ResourceContents{{URI: "db://customers/3", MIMEType: "application/json",
		Text: `{"city":"Oslo, \"North\"","id":3,"name":"Carol"}`}}
	if diff := cmp.Diff(want, res.Contents); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "db://customers/9"}); err == nil ||
		!strings.Contains(err.Error(), "not found") {
		t.Errorf("reading a missing row: got %v, want not found", err)
	}
}

func TestInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: ` + dir + `/shop.db, init: seed.sql}
tools:
  - {name: add, description: d, handler: {backend: shop, exec: "INSERT INTO customers (id, name) VALUES (4, 'Dan')"}}
  - {name: count, description: d, handler: {backend: shop, query: "SELECT count(*) AS n FROM customers"}}
`
	for i, want := range []string{"3", "4"} {
		srv := handlertest.Build(t, registry(), cfg, map[string]string{"seed.sql": seed})
		if i == 0 {
			if res := handlertest.Call(t, context.Background(), srv, "add", `{}`); res.IsError {
				t.Fatal(handlertest.Text(res))
			}
			want = "4"
		}
		res := handlertest.Call(t, context.Background(), srv, "count", `{}`)
		if got := handlertest.Text(res); !strings.Contains(got, "\n"+want+"\n") {
			t.Errorf("build %d: got %q, want %s rows: the seed runs once and data persists", i+1, got, want)
		}
		srv.Close()
	}
}

func TestBrokenInit(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: shop.db, init: seed.sql}
tools:
  - {name: count, description: d, handler: {backend: shop, query: "SELECT count(*) FROM customers"}}
`, map[string]string{"seed.sql": "CREATE TABLE customers (id INTEGER);\nINSERT INTO nowhere VALUES (1);\n"})
	for range 2 {
		res := handlertest.Call(t, context.Background(), srv, "count", `{}`)
		if !res.IsError || !strings.Contains(handlertest.Text(res), "init script: SQL logic error: no such table: nowhere") {
			t.Errorf("want the init script's error each time, got %s", handlertest.Text(res))
		}
	}
}

func TestDatabaseDown(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  pg: {kind: sql, driver: postgres, dsn: "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=2"}
  my: {kind: sql, driver: mysql, dsn: "nobody@tcp(127.0.0.1:1)/x?timeout=2s"}
tools:
  - {name: pg, description: d, handler: {backend: pg, query: SELECT 1}}
  - {name: my, description: d, handler: {backend: my, query: SELECT 1}}
`, nil)
	for _, tool := range []string{"pg", "my"} {
		res := handlertest.Call(t, context.Background(), srv, tool, `{}`)
		if !res.IsError || !strings.Contains(handlertest.Text(res), "the database is unavailable") {
			t.Errorf("%s: want a connection error, got isError=%v %s", tool, res.IsError, handlertest.Text(res))
		}
		if testing.Verbose() {
			t.Log(handlertest.Text(res))
		}
	}
}

// TestReadOnlyMemory proves read-only mode on a database with a single
// connection, where it is switched on and off per call: a refused write
// leaves the connection writable for the next exec tool.
func TestReadOnlyMemory(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, unchecked(), shop+`tools:
  - {name: sneaky, description: d, handler: {backend: shop, query: "DELETE FROM customers"}}
  - {name: write, description: d, handler: {backend: shop, exec: "UPDATE customers SET city = 'Rome'"}}
`, map[string]string{"seed.sql": seed})
	for range 2 {
		if res := handlertest.Call(t, context.Background(), srv, "sneaky", `{}`); !res.IsError ||
			!strings.Contains(handlertest.Text(res), "readonly") {
			t.Errorf("a read-only tool wrote: %s", handlertest.Text(res))
		}
		if res := handlertest.Call(t, context.Background(), srv, "write", `{}`); res.IsError ||
			handlertest.Text(res) != "3 rows affected" {
			t.Errorf("an exec tool after a refused write: %s", handlertest.Text(res))
		}
	}
}

func TestCompleteFrom(t *testing.T) {
	t.Parallel()
	srv := buildShop(t, `resource_templates:
  - uri_template: db://customers/{name}
    name: customer
    complete_from:
      name:
        backend: shop
        query: SELECT name FROM customers WHERE name LIKE :prefix || '%' ORDER BY name
        params: {prefix: "${{ args.value }}"}
    handler: {backend: shop, query: "SELECT * FROM customers WHERE name = :name", params: {name: "${{ args.name }}"}, one_row: true}
prompts:
  - name: visit
    description: plan a visit
    arguments:
      - name: city
        complete_from:
          backend: shop
          query: SELECT DISTINCT city FROM customers WHERE city LIKE :prefix || '%' AND name <> :not ORDER BY city
          params: {prefix: "${{ args.value }}", not: "${{ args.context.name ?? '' }}"}
      - name: name
    messages: [{text: "Visit {{ .args.city }}"}]
`)
	cs := handlertest.Client(t, srv)
	for _, tt := range []struct {
		ref   *mcp.CompleteReference
		arg   string
		value string
		ctx   map[string]string
		want  []string
	}{
		{&mcp.CompleteReference{Type: "ref/resource", URI: "db://customers/{name}"}, "name", "", nil, []string{"Alice", "Bob", "Carol"}},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "db://customers/{name}"}, "name", "b", nil, []string{"Bob"}},
		{&mcp.CompleteReference{Type: "ref/resource", URI: "db://customers/{name}"}, "name", "' OR 1=1 --", nil, []string{}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "visit"}, "city", "", nil, []string{"Oslo, \"North\"", "Paris"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "visit"}, "city", "", map[string]string{"name": "Alice"}, []string{"Oslo, \"North\""}},
	} {
		params := &mcp.CompleteParams{Ref: tt.ref, Argument: mcp.CompleteParamsArgument{Name: tt.arg, Value: tt.value}}
		if tt.ctx != nil {
			params.Context = &mcp.CompleteContext{Arguments: tt.ctx}
		}
		res, err := cs.Complete(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, res.Completion.Values); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.arg, tt.value, diff)
		}
	}
}

func TestOutputSchema(t *testing.T) {
	t.Parallel()
	schema := `{type: object, required: [rows], properties: {rows: {type: array, items: {type: object,
        required: [id, name], properties: {id: {type: integer}, name: {type: string}, city: {type: [string, "null"]}}}}}}`
	srv := buildShop(t, `tools:
  - name: ok
    description: rows that match the schema
    output_schema: `+schema+`
    handler: {backend: shop, query: "SELECT id, name, city FROM customers"}
  - name: wrong
    description: rows that do not
    output_schema: `+schema+`
    handler: {backend: shop, query: "SELECT name AS id, name FROM customers"}
`)
	if res := handlertest.Call(t, context.Background(), srv, "ok", `{}`); res.IsError || res.StructuredContent == nil {
		t.Errorf("ok: %s", handlertest.Text(res))
	}
	if res := handlertest.Call(t, context.Background(), srv, "wrong", `{}`); !res.IsError ||
		!strings.Contains(handlertest.Text(res), "output schema") {
		t.Errorf("wrong: got isError=%v %s", res.IsError, handlertest.Text(res))
	}
}

// TestServerPing is what `mcpgen validate --connect` sees.
func TestServerPing(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  up: {kind: sql, driver: sqlite, dsn: up.db}
  down: {kind: sql, driver: postgres, dsn: "postgres://nobody@127.0.0.1:1/x?connect_timeout=2"}
`, nil)
	got := srv.Ping(context.Background(), nil)
	if len(got) != 2 || got["up"] != nil || got["down"] == nil || !strings.Contains(got["down"].Error(), "database unreachable") {
		t.Errorf("got %v, want up fine and down unreachable", got)
	}
}

// TestCancelAnyTime cancels a query that never ends at many moments around
// its start: SQLite drops an interrupt that arrives just before a statement
// starts, so every one of these calls must still end promptly. The query
// runs in a transaction on the one connection of an in-memory database, and
// in autocommit on the read-only pool of a database file.
func TestCancelAnyTime(t *testing.T) {
	t.Parallel()
	tools := `tools:
  - name: forever
    description: never ends
    handler: {backend: shop, query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"}
`
	for name, dsn := range map[string]string{"memory": `":memory:"`, "file": "shop.db"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := handlertest.Build(t, registry(), strings.Replace(shop, `":memory:"`, dsn, 1)+tools,
				map[string]string{"seed.sql": seed})
			cancelAnyTime(t, srv)
		})
	}
}

func cancelAnyTime(t *testing.T, srv *runtime.Server) {
	t.Helper()
	for i := range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		after := time.Duration(i%500) * 3 * time.Microsecond
		time.AfterFunc(after, cancel)
		done := make(chan *mcp.CallToolResult, 1)
		go func() { done <- handlertest.Call(t, ctx, srv, "forever", `{}`) }()
		select {
		case res := <-done:
			if !res.IsError {
				t.Fatalf("call %d: a canceled query succeeded", i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("call %d, canceled after %v, still runs after 5s", i, after)
		}
		cancel()
	}
}

// TestReadOnlyLeavesNoTransaction runs a read-only tool whose statement
// opens a transaction (the database does not refuse BEGIN): its
// connection must not go back to the pool, where the next read-only call
// would read in that transaction and keep a lock that blocks writers.
func TestReadOnlyLeavesNoTransaction(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, unchecked(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: "file:shop.db?_pragma=busy_timeout(100)", init: seed.sql, max_open: 1}
tools:
  - {name: begin, description: d, handler: {backend: shop, query: BEGIN}}
  - {name: read, description: d, handler: {backend: shop, query: "SELECT count(*) AS n FROM customers"}}
  - {name: write, description: d, handler: {backend: shop, exec: "UPDATE customers SET city = 'Rome'"}}
`, map[string]string{"seed.sql": seed})
	for _, tool := range []string{"begin", "read", "write"} {
		if res := handlertest.Call(t, context.Background(), srv, tool, `{}`); res.IsError {
			t.Fatalf("%s: %s", tool, handlertest.Text(res))
		}
	}
}

// TestEnumsReportedOnce checks that a value outside an enumeration gets one
// diagnostic, the loader's, and no second one from the kind.
func TestEnumsReportedOnce(t *testing.T) {
	t.Parallel()
	cfg := "version: 1\nbackends:\n  shop: {kind: sql, driver: sqlite, dsn: \":memory:\"}\n  other: {kind: sql, driver: oracle, dsn: x}\n" +
		"tools:\n  - name: t\n    description: d\n    handler: {backend: shop, query: SELECT 1, format: xml}\n"
	ds := handlertest.Diagnose(t, registry(), cfg)
	var got []string
	for _, d := range ds {
		got = append(got, d.Path+": "+d.Message)
	}
	want := []string{`backends.other.driver: expected one of sqlite, postgres, mysql, got "oracle"`,
		`tools[0].handler.format: expected one of table, csv, json, got "xml"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestBackendDefaults: a backend's max_rows and format apply to the tools
// that set none; a tool's own win.
func TestBackendDefaults(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: ":memory:", init: seed.sql, max_rows: 1, format: csv, timeout: 5s}
tools:
  - {name: inherits, description: d, handler: {backend: shop, query: "SELECT id, name FROM customers ORDER BY id"}}
  - {name: own, description: d, handler: {backend: shop, query: "SELECT id, name FROM customers ORDER BY id", max_rows: 2, format: json}}
`, map[string]string{"seed.sql": seed})
	for _, tt := range []struct{ tool, want string }{
		{"inherits", "id,name\n1,Alice\n(truncated: showing the first 1 rows; there are more. Narrow the query or raise max_rows.)"},
		{"own", `[{"id":1,"name":"Alice"},{"id":2,"name":"Bob"}]` +
			"\n(truncated: showing the first 2 rows; there are more. Narrow the query or raise max_rows.)"},
	} {
		res := handlertest.Call(t, context.Background(), srv, tt.tool, `{}`)
		if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.tool, diff)
		}
	}
}
