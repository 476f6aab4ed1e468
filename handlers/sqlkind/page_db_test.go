package sqlkind_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
)

// pageRows is the number of rows of the paged table: not a multiple of
// any page size used.
const pageRows = 1234

const pageConfig = `version: 1
backends:
  db: {kind: sql, driver: {DRIVER}, dsn: "{DSN}"}
tools:
  - name: by_id
    description: rows by id
    args: [{name: mod, type: integer}]
    handler:
      backend: db
      query: SELECT id, grp, name FROM {T} WHERE id % :mod = 0 OR :mod = 1
      params: {mod: "${{ args.mod ?? 1 }}"}
      page: {keyset: [id], size: 50, max_size: 500}
  - name: by_group
    description: rows by group, then id
    handler:
      backend: db
      query: SELECT id, grp, name FROM {T}
      page: {keyset: [grp desc, id], size: 37}
  - name: by_group_desc
    description: rows by group and id, both descending
    handler:
      backend: db
      query: SELECT id, grp, name FROM {T};
      page: {keyset: [grp desc, id desc], size: 100}
  - name: by_name
    description: rows by name, then id
    handler:
      backend: db
      query: SELECT id, name FROM {T}
      page: {keyset: [name, id], size: 64}
  - name: by_offset
    description: rows by offset
    handler:
      backend: db
      query: |
        SELECT id, grp FROM {T}
        ORDER BY id -- the order of the pages
      page: {offset: true, size: 200}
  - name: by_time
    description: rows by time
    handler:
      backend: db
      query: SELECT id, at FROM {T}
      page: {keyset: [at, id], size: 99}
  - name: same_grp
    description: a keyset that does not tell rows apart
    handler:
      backend: db
      query: SELECT id, grp FROM {T}
      page: {keyset: [grp], size: 10}
`

// pageServer fills a table of pageRows rows and builds pageConfig on it.
func (d *database) pageServer(t *testing.T) *runtime.Server {
	t.Helper()
	tbl := fmt.Sprintf("sqlpage_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	stmts := []string{"CREATE TABLE " + tbl + " (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, name VARCHAR(50) NOT NULL, at TIMESTAMP NOT NULL)"}
	for start := 1; start <= pageRows; start += 200 {
		var vals []string
		for id := start; id < start+200 && id <= pageRows; id++ {
			// names repeat, with cases and quotes; times repeat too
			name := []string{"b", "B", "a'b", "Ünï", "a"}[id%5]
			at := time.Date(2024, 1, 1, 0, 0, id%17, (id%3)*1000, time.UTC).Format("2006-01-02 15:04:05.000000")
			vals = append(vals, fmt.Sprintf("(%d, %d, '%s', '%s')", id, id%7, strings.ReplaceAll(name, "'", "''"), at))
		}
		stmts = append(stmts, "INSERT INTO "+tbl+" (id, grp, name, at) VALUES "+strings.Join(vals, ", "))
	}
	for _, q := range stmts {
		if _, err := d.db.Exec(q); err != nil {
			t.Fatalf("%.80s: %v", q, err)
		}
	}
	t.Cleanup(func() {
		if _, err := d.db.Exec("DROP TABLE " + tbl); err != nil {
			t.Errorf("dropping %s: %v", tbl, err)
		}
	})
	cfg := strings.NewReplacer("{DRIVER}", d.driver, "{DSN}", d.dsn, "{T}", tbl).Replace(pageConfig)
	return handlertest.Build(t, registry(), cfg, nil)
}

// walk calls tool page after page, from args, and returns the rows.
func walk(t *testing.T, srv *runtime.Server, tool string, args map[string]any) ([]map[string]any, int) {
	t.Helper()
	var all []map[string]any
	for pages := 1; ; pages++ {
		res := call(t, srv, tool, args)
		if res.IsError {
			t.Fatalf("%s page %d: %s", tool, pages, handlertest.Text(res))
		}
		got := res.StructuredContent.(map[string]any)
		for _, r := range got["rows"].([]any) {
			all = append(all, r.(map[string]any))
		}
		next, _ := got["nextCursor"].(string)
		if next == "" {
			return all, pages
		}
		if !strings.Contains(handlertest.Text(res), "nextCursor: "+next) {
			t.Fatalf("%s page %d: the text does not give nextCursor:\n%s", tool, pages, handlertest.Text(res))
		}
		if pages > pageRows {
			t.Fatalf("%s: more pages than rows", tool)
		}
		args = maps.Clone(args)
		args["cursor"] = next
	}
}

func num(v any) int64 {
	switch v := v.(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	}
	panic(fmt.Sprintf("not a number: %#v", v))
}

func testPages(t *testing.T, d *database) {
	srv := d.pageServer(t)
	t.Run("walks", func(t *testing.T) {
		for _, tt := range []struct {
			tool  string
			args  map[string]any
			rows  int
			pages int
			less  func(a, b map[string]any) bool // a comes before b
		}{
			{"by_id", map[string]any{}, pageRows, 25, func(a, b map[string]any) bool { return num(a["id"]) < num(b["id"]) }},
			{"by_id", map[string]any{"limit": 500}, pageRows, 3, nil},
			{"by_id", map[string]any{"mod": 3}, pageRows / 3, 9, nil},
			{"by_group", map[string]any{}, pageRows, 34, func(a, b map[string]any) bool {
				return num(a["grp"]) > num(b["grp"]) || num(a["grp"]) == num(b["grp"]) && num(a["id"]) < num(b["id"])
			}},
			{"by_group_desc", map[string]any{}, pageRows, 13, func(a, b map[string]any) bool {
				return num(a["grp"]) > num(b["grp"]) || num(a["grp"]) == num(b["grp"]) && num(a["id"]) > num(b["id"])
			}},
			{"by_name", map[string]any{}, pageRows, 20, nil},
			{"by_offset", map[string]any{}, pageRows, 7, func(a, b map[string]any) bool { return num(a["id"]) < num(b["id"]) }},
			{"by_time", map[string]any{}, pageRows, 13, nil},
		} {
			rows, pages := walk(t, srv, tt.tool, tt.args)
			seen := map[int64]bool{}
			for i, r := range rows {
				id := num(r["id"])
				if seen[id] {
					t.Errorf("%s %v: row %d twice", tt.tool, tt.args, id)
				}
				seen[id] = true
				if tt.less != nil && i > 0 && !tt.less(rows[i-1], r) {
					t.Errorf("%s: row %v comes after %v", tt.tool, r, rows[i-1])
				}
			}
			if len(seen) != tt.rows || pages != tt.pages {
				t.Errorf("%s %v: %d rows in %d pages, want %d in %d", tt.tool, tt.args, len(seen), pages, tt.rows, tt.pages)
			}
		}
	})
	t.Run("cursors refused", func(t *testing.T) { testBadCursors(t, srv) })
	t.Run("keyset not unique", func(t *testing.T) {
		res := call(t, srv, "same_grp", map[string]any{})
		if !res.IsError || !strings.Contains(handlertest.Text(res), "the keyset must tell every row apart") {
			t.Errorf("got isError=%v %s", res.IsError, handlertest.Text(res))
		}
	})
}

// testBadCursors passes cursors that are not the tool's: each is a clear
// tool error, and none returns rows.
func testBadCursors(t *testing.T, srv *runtime.Server) {
	first := call(t, srv, "by_id", map[string]any{}).StructuredContent.(map[string]any)["nextCursor"].(string)
	other := call(t, srv, "by_group", map[string]any{}).StructuredContent.(map[string]any)["nextCursor"].(string)
	offset := call(t, srv, "by_offset", map[string]any{}).StructuredContent.(map[string]any)["nextCursor"].(string)
	payload, sum, _ := strings.Cut(first, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), `"50"`, `"0"`, 1))) + "." + sum
	for _, tt := range []struct {
		name   string
		args   map[string]any
		tool   string
		reason string
	}{
		{"garbage", map[string]any{"cursor": "garbage"}, "by_id", "not a nextCursor of this tool"},
		{"quotes", map[string]any{"cursor": `' OR 1=1 --`}, "by_id", "not a nextCursor of this tool"},
		{"NUL", map[string]any{"cursor": first + "\x00"}, "by_id", "not a nextCursor of this tool"},
		{"1 MiB", map[string]any{"cursor": strings.Repeat("A", 1<<20)}, "by_id", "cursor"},
		{"tampered", map[string]any{"cursor": forged}, "by_id", "not a nextCursor of this tool"},
		{"other tool", map[string]any{"cursor": other}, "by_id", "not a nextCursor of this tool"},
		{"offset cursor", map[string]any{"cursor": offset}, "by_id", "not a nextCursor of this tool"},
		{"other arguments", map[string]any{"cursor": first, "mod": 2}, "by_id", "with these arguments"},
		{"keyset cursor", map[string]any{"cursor": first}, "by_offset", "not a nextCursor of this tool"},
		{"limit too large", map[string]any{"limit": 501}, "by_id", "limit"},
		{"not a string", map[string]any{"cursor": 5}, "by_id", "cursor"},
	} {
		res := call(t, srv, tt.tool, tt.args)
		if !res.IsError || !strings.Contains(handlertest.Text(res), tt.reason) {
			t.Errorf("%s: got isError=%v %.300s, want an error saying %q", tt.name, res.IsError, handlertest.Text(res), tt.reason)
		}
	}
}

// testPagedSession: each page runs under the caller's session, so a
// caller walks its own rows only, even with another caller's cursor; a
// paged read-only tool stays read-only.
func testPagedSession(t *testing.T, d *sessionDB, srv *runtime.Server) {
	var cursorA string
	for tenant, want := range map[string]string{"a": "a1 a2", "b": "b1 b2 b3"} {
		ctx := caller("u-"+tenant, map[string]any{"tenant": tenant, "role": d.role})
		var got []string
		args := `{}`
		for range 5 {
			res := handlertest.Call(t, ctx, srv, "docs_paged", args)
			for _, r := range rows(res) {
				if r["seen"] != tenant {
					t.Errorf("tenant %s: a page ran with app.tenant %v", tenant, r["seen"])
				}
				got = append(got, fmt.Sprint(r["body"]))
			}
			next, _ := res.StructuredContent.(map[string]any)["nextCursor"].(string)
			if next == "" {
				break
			}
			if tenant == "a" {
				cursorA = next
			}
			args = fmt.Sprintf(`{"cursor": %q}`, next)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("tenant %s walked %q, want %q", tenant, got, want)
		}
	}
	ctx := caller("u-b", map[string]any{"tenant": "b", "role": d.role})
	res := handlertest.Call(t, ctx, srv, "docs_paged", fmt.Sprintf(`{"cursor": %q}`, cursorA))
	if r := rows(res); res.IsError || len(r) != 1 || r[0]["tenant"] != "b" {
		t.Errorf("tenant b with tenant a's cursor: %s", handlertest.Text(res))
	}
	if d.driver != "postgres" {
		return
	}
	if res := handlertest.Call(t, ctx, srv, "write_paged", `{}`); !res.IsError {
		t.Errorf("a paged read-only tool wrote: %s", handlertest.Text(res))
	}
	var n int
	if err := d.db.QueryRow("SELECT count(*) FROM " + d.table + " WHERE body = 'paged'").Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rows written (%v)", n, err)
	}
}
