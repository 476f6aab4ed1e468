package sqlkind_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// BenchmarkOneRow calls a one-row query tool in process and reports its
// cost as a ratio to running the same prepared statement directly through
// database/sql on the same database, measured in the same run.
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
	args := []byte(`{"id": 1}`)
	for b.Loop() {
		res, err := srv.CallTool(ctx, "customer", args, nil)
		if err != nil || res.IsError {
			b.Fatal(err, handlertest.Text(res))
		}
	}
	tool := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	// The same number of direct calls, timed apart from the benchmark's own clock.
	direct := float64(directOneRow(b, path, b.N).Nanoseconds()) / float64(b.N)
	b.ReportMetric(direct, "direct-ns/op")
	b.ReportMetric(tool/direct, "x-direct")
}

// directOneRow runs the tool's query n times as a prepared statement through
// database/sql and returns how long that took.
func directOneRow(b *testing.B, path string, n int) time.Duration {
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
		id         int64
		name, city sql.NullString
	)
	start := time.Now()
	for range n {
		if err := stmt.QueryRow(1).Scan(&id, &name, &city); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}
