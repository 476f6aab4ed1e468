package sqlkind_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// TestColumnsChange: a read-only tool's result follows a change of its
// table's columns between two calls (SELECT * prepared on a connection
// returns the new ones).
func TestColumnsChange(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "shop.db")
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: `+path+`, init: seed.sql, max_open: 1}
tools:
  - {name: one, description: d, handler: {backend: shop, query: "SELECT * FROM customers WHERE id = 1"}}
  - {name: alter, description: d, handler: {backend: shop, exec: "ALTER TABLE customers ADD COLUMN rate REAL DEFAULT 1.5"}}
`, map[string]string{"seed.sql": seed})
	ctx := context.Background()
	for _, tt := range []struct{ tool, want string }{
		{"one", "id | name  | city\n---+-------+------\n1  | Alice | Paris\n(1 row)"},
		{"alter", ""},
		{"one", "id | name  | city  | rate\n---+-------+-------+-----\n1  | Alice | Paris | 1.5\n(1 row)"},
	} {
		res := handlertest.Call(t, ctx, srv, tt.tool, `{}`)
		if tt.want == "" {
			if res.IsError {
				t.Fatal(handlertest.Text(res))
			}
			continue
		}
		if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.tool, diff)
		}
	}
	res := handlertest.Call(t, ctx, srv, "one", `{}`)
	want := map[string]any{"columns": []any{"id", "name", "city", "rate"}, "row_count": int64(1), "truncated": false,
		"rows": []any{map[string]any{"id": int64(1), "name": "Alice", "city": "Paris", "rate": 1.5}}}
	if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
		t.Errorf("structured (-want +got):\n%s", diff)
	}
}

// TestReadOnlyFileTimeout: the query of a read-only tool on a database file
// (run on the driver's connection) ends at the tool's timeout, and says so.
func TestReadOnlyFileTimeout(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: `+filepath.Join(t.TempDir(), "shop.db")+`, init: seed.sql}
tools:
  - name: forever
    description: never ends
    handler: {backend: shop, timeout: 100ms, query: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"}
`, map[string]string{"seed.sql": seed})
	res := handlertest.Call(t, context.Background(), srv, "forever", `{}`)
	if text := handlertest.Text(res); !res.IsError || !strings.Contains(text, "the query timed out after 100ms") {
		t.Errorf("got %q, want an error saying the query timed out", text)
	}
}
