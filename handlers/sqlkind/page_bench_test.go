package sqlkind_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
)

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
