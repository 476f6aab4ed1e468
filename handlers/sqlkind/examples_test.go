package sqlkind_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildExample builds examples/NAME/mcpgen.yaml from a copy in a temporary
// directory (so that a SQLite database is created there), with env as the
// environment.
func buildExample(t *testing.T, name string, env map[string]string) *runtime.Server {
	t.Helper()
	src := filepath.Join("..", "..", "examples", name)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil { // the config, its seed, its skills' files
		t.Fatal(err)
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv, ds := runtime.Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: lookup},
		runtime.BuildOptions{Registry: registry()})
	if ds.Errors() > 0 || ds.Warnings() > 0 {
		t.Fatalf("the example does not build cleanly:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// exampleCalls are tool calls both shop examples answer alike (the text of
// the sqlite and postgres results differs only in how numbers are typed).
var exampleCalls = []struct{ tool, args, want string }{
	{"search_customers", `{"name": "LOVE"}`, "Ada Lovelace"},
	{"search_customers", `{"name": "' OR 1=1 --"}`, "(0 rows)"},
	{"customer_orders", `{"customer_id": 1}`, `[{"quantity":1,"sku":"KB-101"},{"quantity":2,"sku":"CB-001"}]`},
	{"customer_orders", `{"customer_id": 1, "status": "paid"}`, "(1 row)"},
	{"products_by_id", `{"ids": [2, 4]}`, "2,MS-220,Wireless mouse,24.5"},
	{"sales_report", `{}`, `{"status":"paid","orders":3,"revenue":`},
}

func testExample(t *testing.T, srv *runtime.Server) {
	t.Helper()
	for _, c := range exampleCalls {
		res := handlertest.Call(t, context.Background(), srv, c.tool, c.args)
		if res.IsError || !strings.Contains(handlertest.Text(res), c.want) {
			t.Errorf("%s %s: got isError=%v\n%s\nwant it to contain %q", c.tool, c.args, res.IsError, handlertest.Text(res), c.want)
		}
	}
	cs := handlertest.Client(t, srv)
	ctx := context.Background()
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "db://products/DK-100"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Contents[0].Text; !strings.Contains(got, `"attributes":{"ports":["HDMI","DP","USB-A","Ethernet"]}`) {
		t.Errorf("product DK-100: %s", got)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "db://customers/99"}); err == nil {
		t.Errorf("customer 99 exists")
	}
	for _, c := range []struct {
		ref        *mcp.CompleteReference
		arg, typed string
		want       []string
	}{
		{&mcp.CompleteReference{Type: "ref/resource", URI: "db://products/{sku}"}, "sku", "m", []string{"MN-270", "MS-220"}},
		{&mcp.CompleteReference{Type: "ref/prompt", Name: "customer_review"}, "customer_id", "", []string{"1", "2", "3", "4", "5", "6", "7", "8"}},
	} {
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: c.ref, Argument: mcp.CompleteParamsArgument{Name: c.arg, Value: c.typed}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c.want, res.Completion.Values); diff != "" {
			t.Errorf("completing %s %q (-want +got):\n%s", c.arg, c.typed, diff)
		}
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "customer_review", Arguments: map[string]string{"customer_id": "8"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(got, "db://customers/8") {
		t.Errorf("prompt: %s", got)
	}
}

func TestExampleSQLite(t *testing.T) {
	t.Parallel()
	srv := buildExample(t, "sqlite", nil)
	testExample(t, srv)
	res, err := handlertest.Client(t, srv).ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "db://customers/8"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"city":"Dublin","created_at":"2024-07-19T17:55:00Z","email":"margaret@example.com","id":8,"name":"Margaret O'Brien"}`
	if diff := cmp.Diff(want, res.Contents[0].Text); diff != "" {
		t.Errorf("customer 8 (-want +got):\n%s", diff)
	}
}

// TestExamplePostgres loads the example's seed into a schema of its own and
// runs the same calls as the sqlite example, plus its exec tool. Without a
// database it only checks that the config builds.
func TestExamplePostgres(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		buildExample(t, "postgres", map[string]string{"SHOP_DSN": "postgres://localhost/shop"})
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set: built the example only")
	}
	schema := fmt.Sprintf("mcpgen_example_%d", rand.IntN(1e9))
	db := open(t, "pgx", dsn)
	seed, err := os.ReadFile(filepath.Join("..", "..", "examples", "postgres", "seed.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema + "; SET search_path TO " + schema + ";\n" + string(seed)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	srv := buildExample(t, "postgres", map[string]string{"SHOP_DSN": u.String()})
	testExample(t, srv)
	// monthly_revenue runs as a task over MCP; called directly, its query runs the same
	report := handlertest.Call(t, context.Background(), srv, "monthly_revenue", `{"since": "2024-01-01"}`)
	if got := handlertest.Text(report); report.IsError || !strings.Contains(got, "| revenue") {
		t.Errorf("monthly_revenue: %s", got)
	}
	for _, want := range []string{"1 rows affected", "0 rows affected"} {
		res := handlertest.Call(t, context.Background(), srv, "cancel_order", `{"order_id": 1005}`)
		if got := handlertest.Text(res); res.IsError || got != want {
			t.Errorf("cancel_order: got %q, want %q", got, want)
		}
	}
}
