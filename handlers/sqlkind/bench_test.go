package sqlkind_test

import (
	"context"
	"database/sql"
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
