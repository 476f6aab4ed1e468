package sqlkind_test

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime/auth"
)

// TestCallerBound: a query binds :owner to the caller's subject, as a
// parameter, and a caller sees only their own rows.
func TestCallerBound(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
backends:
  shop: {kind: sql, driver: sqlite, dsn: ":memory:", init: seed.sql}
tools:
  - name: my_city
    description: The caller's city.
    handler:
      backend: shop
      query: SELECT city FROM customers WHERE name = :owner
      params: {owner: "${{ auth.subject }}"}
      format: csv
`, map[string]string{"seed.sql": seed})
	for who, want := range map[string]string{"Alice": "city\nParis\n(1 row)", "Bob' OR '1'='1": "city\n(0 rows)"} {
		ctx := auth.WithCaller(context.Background(), auth.NewCaller(auth.Caller{Subject: who}, ""))
		res := handlertest.Call(t, ctx, srv, "my_city", `{}`)
		if got := handlertest.Text(res); res.IsError || got != want {
			t.Errorf("%s: %q (error %v), want %q", who, got, res.IsError, want)
		}
	}
}
