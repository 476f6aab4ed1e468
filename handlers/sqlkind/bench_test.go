package sqlkind_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
)

// BenchmarkOneRow calls a one-row query tool in process and reports its
// cost as a ratio to running the same prepared statement directly through
// database/sql on the same database. The two alternate in one loop, so that
// drift in the machine's speed affects both alike.
func BenchmarkOneRow(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	srv := handlertest.Build(b, registry(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: `+path+`, init: seed.sql}
tools:
  - name: customer
    description: one customer
    args: [{name: id, type: integer, required: true}]
    handler:
      backend: shop
      query: SELECT id, name, city FROM customers WHERE id = :id
      params: {id: "${{ args.id }}"}
`, map[string]string{"seed.sql": seed})
	ctx := context.Background()
	if res := handlertest.Call(b, ctx, srv, "customer", `{"id": 1}`); res.IsError {
		b.Fatal(handlertest.Text(res))
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	stmt, err := db.Prepare("SELECT id, name, city FROM customers WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	var (
		id           int64
		name, city   sql.NullString
		tool, direct time.Duration
		args         = []byte(`{"id": 1}`)
	)
	for b.Loop() {
		t0 := time.Now()
		res, err := srv.CallTool(ctx, "customer", args, nil)
		if err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		t1 := time.Now()
		if err := stmt.QueryRow(1).Scan(&id, &name, &city); err != nil {
			b.Fatal(err)
		}
		tool, direct = tool+t1.Sub(t0), direct+time.Since(t1)
	}
	b.ReportMetric(float64(tool.Nanoseconds())/float64(b.N), "tool-ns/op")
	b.ReportMetric(float64(direct.Nanoseconds())/float64(b.N), "direct-ns/op")
	b.ReportMetric(float64(tool)/float64(direct), "x-direct")
}

// BenchmarkSessionPostgres reports what a session costs a call on
// PostgreSQL: a one-row tool of a backend with a role and two settings,
// against the same tool of the same database without them, alternating.
func BenchmarkSessionPostgres(b *testing.B) {
	d := postgresSession(b)
	with := handlertest.Build(b, unchecked(), d.config, nil)
	_, rest, _ := strings.Cut(d.config, "    session:\n")
	_, tools, _ := strings.Cut(rest, "tools:\n")
	head, _, _ := strings.Cut(d.config, "    session:\n")
	without := handlertest.Build(b, unchecked(), head+"tools:\n"+tools, nil)
	ctx := caller("u-a", map[string]any{"tenant": "a", "role": d.role})
	var on, off time.Duration
	for b.Loop() {
		t0 := time.Now()
		if res, err := with.CallTool(ctx, "echo", nil, nil); err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		t1 := time.Now()
		if res, err := without.CallTool(ctx, "echo", nil, nil); err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		on, off = on+t1.Sub(t0), off+time.Since(t1)
	}
	b.ReportMetric(float64(on.Nanoseconds())/float64(b.N), "session-ns/op")
	b.ReportMetric(float64(off.Nanoseconds())/float64(b.N), "none-ns/op")
}

// BenchmarkPage reports what a keyset page costs against the query written
// by hand for the same page (an after_id argument, ORDER BY and LIMIT):
// page 100 of 50 rows of a SQLite table of 10,000, the two alternating in
// one loop.
func BenchmarkPage(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.db")
	var vals []string
	for id := 1; id <= 10000; id++ {
		vals = append(vals, fmt.Sprintf("(%d, 'name %d')", id, id))
	}
	seedSQL := "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\nINSERT INTO t VALUES " + strings.Join(vals, ", ") + ";\n"
	srv := handlertest.Build(b, registry(), `version: 1
backends:
  db: {kind: sql, driver: sqlite, dsn: `+path+`, init: seed.sql}
tools:
  - name: paged
    description: a page of rows
    handler: {backend: db, query: "SELECT id, name FROM t", page: {keyset: [id], size: 50}}
  - name: by_hand
    description: the rows after an id
    args: [{name: after_id, type: integer, required: true}]
    handler:
      backend: db
      query: SELECT id, name FROM t WHERE id > :after ORDER BY id LIMIT 50
      params: {after: "${{ args.after_id }}"}
`, map[string]string{"seed.sql": seedSQL})
	ctx := context.Background()
	args := []byte(`{}`)
	for range 99 { // the cursor of page 100
		res, err := srv.CallTool(ctx, "paged", args, nil)
		if err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		args, _ = json.Marshal(map[string]any{"cursor": res.StructuredContent.(map[string]any)["nextCursor"]})
	}
	hand := []byte(`{"after_id": 4950}`)
	var paged, byHand time.Duration
	for b.Loop() {
		t0 := time.Now()
		res, err := srv.CallTool(ctx, "paged", args, nil)
		if err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		t1 := time.Now()
		if res, err = srv.CallTool(ctx, "by_hand", hand, nil); err != nil || res.IsError {
			b.Fatal(err, runtime.ResultText(res))
		}
		paged, byHand = paged+t1.Sub(t0), byHand+time.Since(t1)
	}
	b.ReportMetric(float64(paged.Nanoseconds())/float64(b.N), "paged-ns/op")
	b.ReportMetric(float64(byHand.Nanoseconds())/float64(b.N), "by-hand-ns/op")
	b.ReportMetric(float64(paged)/float64(byHand), "x-by-hand")
}
