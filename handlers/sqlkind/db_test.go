package sqlkind_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/handlers/sqlkind"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// database describes one database the shared tests run against.
type database struct {
	driver string
	dsn    string  // as written in the config
	db     *sql.DB // for setting up and checking, outside mcpgen
	// sleep is a query that runs for about 30 seconds; sleeping counts the
	// sleeps the server is running ("" where there is no server).
	sleep, sleeping string
	// quote quotes an identifier.
	quote func(string) string
	// inList is a condition true when id is in the list parameter :ids.
	inList string
	// typesDDL creates table {TT}; typesInsert fills it.
	typesDDL, typesInsert string
	// showTimeout reads the server-side statement timeout; wantTimeout is
	// what it says under a 2s tool timeout.
	showTimeout, wantTimeout string
	// decimal is the d column of typesInsert as the tool returns it.
	decimal string
}

func registry() *handlers.Registry { return handlers.NewRegistry(sqlkind.Kind()) }

// unchecked is a registry whose sql kind skips the read-only statement
// check: the database alone must refuse the writes of read-only tools.
func unchecked() *handlers.Registry { return handlers.NewRegistry(sqlkind.UncheckedKind()) }

// tables makes two uniquely named tables ({T}: id, name; {TT}: one column of
// each type), dropped when the test ends.
func (d *database) tables(t *testing.T) (string, string) {
	t.Helper()
	suffix := fmt.Sprintf("%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	tbl, types := "mcpgen_t_"+suffix, "mcpgen_tt_"+suffix
	for _, q := range []string{
		"CREATE TABLE " + tbl + " (id INTEGER PRIMARY KEY, name VARCHAR(200))",
		"INSERT INTO " + tbl + " (id, name) VALUES (1, 'Alice'), (2, 'O''Brien'), (3, 'Ünïcødé \"quoted\"')",
		strings.ReplaceAll(d.typesDDL, "{TT}", types),
		strings.ReplaceAll(d.typesInsert, "{TT}", types),
	} {
		if _, err := d.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		for _, name := range []string{tbl, types} {
			if _, err := d.db.Exec("DROP TABLE " + name); err != nil {
				t.Errorf("dropping %s: %v", name, err)
			}
		}
	})
	return tbl, types
}

const dbConfig = `version: 1
backends:
  db:
    kind: sql
    driver: {DRIVER}
    dsn: "{DSN}"
tools:
  - name: find
    description: find rows by name
    args: [{name: name, required: true}]
    handler:
      backend: db
      query: |
        SELECT id, name AS {ALIAS} FROM {T}
        WHERE name = :name -- a comment with :name and 'quotes'
        ORDER BY id
      params: {name: "${{ args.name }}"}
  - name: add
    description: add a row
    args: [{name: id, type: integer, required: true}, {name: name, required: true}]
    handler:
      backend: db
      exec: INSERT INTO {T} (id, name) VALUES (:id, :name)
      params: {id: "${{ args.id }}", name: "${{ args.name }}"}
  - name: delete_ro
    description: a read-only tool that tries to delete
    handler: {backend: db, query: "DELETE FROM {T}"}
  - name: insert_ro
    description: a read-only tool that tries to insert
    handler: {backend: db, query: "INSERT INTO {T} (id, name) VALUES (99, 'x')"}
  - name: update_ro
    description: a read-only tool whose second statement writes
    handler:
      backend: db
      statements: [{query: "SELECT count(*) AS n FROM {T}"}, {query: "UPDATE {T} SET name = 'x'"}]
  - name: tx
    description: the second statement fails, so the first is undone
    handler:
      backend: db
      statements: [{exec: "INSERT INTO {T} (id, name) VALUES (50, 'tx')"}, {exec: "INSERT INTO {T} (id, name) VALUES (1, 'dup')"}]
  - name: sleep
    description: a long query
    handler: {backend: db, query: "{SLEEP}", timeout: 20s}
  - name: sleep_short
    description: a long query with a short timeout
    handler: {backend: db, query: "{SLEEP}", timeout: 300ms}
  - name: server_timeout
    description: the statement timeout the server applies
    handler: {backend: db, query: "{SHOWTIMEOUT}", timeout: 2s}
  - name: types
    description: one column of each type
    handler: {backend: db, query: "SELECT n, f, d, t, b, j, s FROM {TT} ORDER BY id", json_columns: [j]}
  - name: by_ids
    description: rows whose id is in a list
    args: [{name: ids, type: array, items: integer, required: true}]
    handler:
      backend: db
      query: "SELECT id FROM {T} WHERE {INLIST} ORDER BY id"
      params: {ids: "${{ args.ids }}"}
`

// server builds the shared config against d.
func (d *database) server(t *testing.T) (*runtime.Server, string) {
	t.Helper()
	tbl, types := d.tables(t)
	cfg := strings.NewReplacer("{DRIVER}", d.driver, "{DSN}", d.dsn, "{T}", tbl, "{TT}", types,
		"{SLEEP}", d.sleep, "{INLIST}", d.inList, "{ALIAS}", d.quote(`it's :x "q"`), "{SHOWTIMEOUT}", d.showTimeout).Replace(dbConfig)
	// The config has read-only tools that write: the database alone must
	// refuse them.
	return handlertest.Build(t, unchecked(), cfg, nil), tbl
}

// testDatabase runs the behaviour every database must show.
func testDatabase(t *testing.T, d *database) {
	t.Run("injection", func(t *testing.T) { testInjection(t, d) })
	t.Run("read only", func(t *testing.T) { testReadOnly(t, d) })
	t.Run("read-only attacks", func(t *testing.T) { testReadOnlyAttacks(t, d) })
	t.Run("transaction", func(t *testing.T) { testTransaction(t, d) })
	t.Run("cancellation", func(t *testing.T) { testCancel(t, d) })
	t.Run("timeout", func(t *testing.T) { testTimeout(t, d) })
	t.Run("server timeout", func(t *testing.T) { testServerTimeout(t, d) })
	t.Run("types", func(t *testing.T) { testTypes(t, d) })
	t.Run("lists", func(t *testing.T) { testLists(t, d) })
	t.Run("pages", func(t *testing.T) { testPages(t, d) })
}

func (d *database) count(t *testing.T, tbl string) int {
	t.Helper()
	var n int
	if err := d.db.QueryRow("SELECT count(*) FROM " + tbl).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func call(t *testing.T, srv *runtime.Server, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return handlertest.Call(t, context.Background(), srv, tool, string(raw))
}

// normalize round-trips structured content through JSON, keeping numbers exact.
func normalize(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func testInjection(t *testing.T, d *database) {
	srv, tbl := d.server(t)
	for _, name := range []string{
		`' OR 1=1 --`, `' OR '1'='1`, `x'; DROP TABLE ` + tbl + `; --`, `'); DELETE FROM ` + tbl + `; --`,
		`" OR ""="`, "`; DROP TABLE " + tbl + "; --", `\' OR 1=1 --`, `:name`, `$1`, `?`,
		"ʼ OR 1=1 --", "＇ OR 1=1 --", "\u2019; DROP TABLE " + tbl + "; --", "Alice\x00' OR 1=1",
	} {
		res := call(t, srv, "find", map[string]any{"name": name})
		if res.IsError && strings.Contains(name, "\x00") {
			continue // PostgreSQL refuses NUL in text: an error, and nothing changed
		}
		if res.IsError {
			t.Errorf("find %q failed: %s", name, handlertest.Text(res))
			continue
		}
		if got := res.StructuredContent.(map[string]any)["row_count"]; got != int64(0) {
			t.Errorf("find %q matched %v rows, want 0", name, got)
		}
	}
	for _, name := range []string{"O'Brien", `Ünïcødé "quoted"`} {
		res := call(t, srv, "find", map[string]any{"name": name})
		rows, _ := res.StructuredContent.(map[string]any)["rows"].([]any)
		if len(rows) != 1 || rows[0].(map[string]any)[`it's :x "q"`] != name {
			t.Errorf("find %q: got %s, want its one row", name, handlertest.Text(res))
		}
	}
	res := call(t, srv, "add", map[string]any{"id": 10, "name": "'); DROP TABLE " + tbl + "; --"})
	if res.IsError || !strings.Contains(handlertest.Text(res), "1 rows affected") {
		t.Errorf("add: %s", handlertest.Text(res))
	}
	if n := d.count(t, tbl); n != 4 {
		t.Errorf("the table has %d rows, want the 3 it had plus the one added", n)
	}
}

func testReadOnly(t *testing.T, d *database) {
	srv, tbl := d.server(t)
	for _, tool := range []string{"delete_ro", "insert_ro", "update_ro"} {
		res := call(t, srv, tool, map[string]any{})
		if !res.IsError {
			t.Errorf("%s succeeded: %s", tool, handlertest.Text(res))
		}
	}
	var name string
	if err := d.db.QueryRow("SELECT name FROM " + tbl + " WHERE id = 1").Scan(&name); err != nil || name != "Alice" {
		t.Errorf("row 1 is %q (%v), want Alice", name, err)
	}
	if n := d.count(t, tbl); n != 3 {
		t.Errorf("the table has %d rows, want 3", n)
	}
}

func testTransaction(t *testing.T, d *database) {
	srv, tbl := d.server(t)
	res := call(t, srv, "tx", map[string]any{})
	if !res.IsError || !strings.Contains(handlertest.Text(res), "statement 2") {
		t.Errorf("want statement 2 to fail, got isError=%v %s", res.IsError, handlertest.Text(res))
	}
	if n := d.count(t, tbl); n != 3 {
		t.Errorf("the table has %d rows, want 3: the first insert must be rolled back", n)
	}
}

func testCancel(t *testing.T, d *database) {
	srv, _ := d.server(t)
	ctx, cancel := context.WithCancel(context.Background())
	var canceled time.Time
	time.AfterFunc(300*time.Millisecond, func() { canceled = time.Now(); cancel() })
	res := handlertest.Call(t, ctx, srv, "sleep", `{}`)
	if took := time.Since(canceled); took > time.Second {
		t.Errorf("the query ran on for %v after cancellation", took)
	}
	if !res.IsError {
		t.Errorf("a canceled query succeeded: %s", handlertest.Text(res))
	}
	if d.sleeping == "" {
		return
	}
	n := -1
	for deadline := time.Now().Add(time.Second); n != 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := d.db.QueryRow(d.sleeping).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	if n != 0 {
		t.Errorf("the server still runs %d canceled queries a second later", n)
	}
}

func testTimeout(t *testing.T, d *database) {
	srv, _ := d.server(t)
	start := time.Now()
	res := call(t, srv, "sleep_short", map[string]any{})
	if took := time.Since(start); took > 1300*time.Millisecond {
		t.Errorf("a 300ms timeout returned after %v", took)
	}
	if !res.IsError || !strings.Contains(handlertest.Text(res), "timed out after 300ms") {
		t.Errorf("want a timeout error, got isError=%v %s", res.IsError, handlertest.Text(res))
	}
}

func testTypes(t *testing.T, d *database) {
	srv, _ := d.server(t)
	res := call(t, srv, "types", map[string]any{})
	if res.IsError {
		t.Fatal(handlertest.Text(res))
	}
	want := normalize(t, map[string]any{"columns": []string{"n", "f", "d", "t", "b", "j", "s"}, "row_count": 2, "truncated": false,
		"rows": []any{
			json.RawMessage(strings.Replace(`{"n": 9007199254740993, "f": 1.5, "d": "DECIMAL", "t": "2024-05-06T07:08:09Z",
				"b": "AP8Q", "j": {"k": [1, 2.5, "x"], "big": 12345678901234567890}, "s": "héllo"}`, "DECIMAL", d.decimal, 1)),
			map[string]any{"n": nil, "f": nil, "d": nil, "t": nil, "b": nil, "j": nil, "s": nil},
		}})
	if diff := cmp.Diff(want, normalize(t, res.StructuredContent)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func testLists(t *testing.T, d *database) {
	srv, _ := d.server(t)
	res := call(t, srv, "by_ids", map[string]any{"ids": []int{3, 1, 7}})
	want := normalize(t, []any{map[string]any{"id": 1}, map[string]any{"id": 3}})
	got, _ := res.StructuredContent.(map[string]any)
	if diff := cmp.Diff(want, normalize(t, got["rows"])); diff != "" {
		t.Errorf("(-want +got):\n%s\n%s", diff, handlertest.Text(res))
	}
}

func testServerTimeout(t *testing.T, d *database) {
	srv, _ := d.server(t)
	res := call(t, srv, "server_timeout", map[string]any{})
	if got := handlertest.Text(res); res.IsError || !strings.Contains(got, "\n"+d.wantTimeout+"\n") {
		t.Errorf("got %q, want %s", got, d.wantTimeout)
	}
}
