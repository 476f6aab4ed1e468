package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHelpdeskExample serves examples/helpdesk with `mcpgen serve` on the
// real PostgreSQL, loaded with the example's schema.sql, and calls it with
// client-credentials tokens from a real authorization server
// (oidc-provider): the row-level security policies of the database decide
// what each caller sees and may do, from the role and subject mcpgen sets
// for the call.
func TestHelpdeskExample(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	db := loadHelpdesk(t, dsn)
	port := authtest.FreePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	resource := base + "/mcp"
	idp := authtest.StartIdP(t, authtest.IdPOptions{Resource: resource})
	cmd := exec.Command(binary(t), "serve", "--http", fmt.Sprintf("127.0.0.1:%d", port), "../../examples/helpdesk/mcpgen.yaml")
	cmd.Env = append(os.Environ(), "OAUTH_ISSUER="+idp.Issuer, "OAUTH_AUDIENCE="+resource, "OAUTH_JWKS_URL="+idp.JWKSURL,
		"HELPDESK_DSN="+dsn)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, base)

	acme := connectHTTP(t, resource, idp.Token(t, "mcp-reader", "reader-secret", "tools:read", ""))
	globex := connectHTTP(t, resource, idp.Token(t, "mcpgen-rs", "rs-secret", "tools:read", ""))
	// admin alone: it implies tools:write, which implies tools:read
	admin := connectHTTP(t, resource, idp.Token(t, "mcp-admin", "admin-secret", "admin", ""))

	t.Run("the database knows the caller", func(t *testing.T) {
		for _, tt := range []struct {
			cs   *mcp.ClientSession
			want map[string]any
		}{
			{acme, map[string]any{"role": "helpdesk_agent", "subject": "mcp-reader", "tenant": "acme"}},
			{globex, map[string]any{"role": "helpdesk_agent", "subject": "mcpgen-rs", "tenant": "globex"}},
			{admin, map[string]any{"role": "helpdesk_admin", "subject": "mcp-admin", "tenant": nil}},
		} {
			res := callTool(t, tt.cs, "whoami", nil)
			if diff := cmp.Diff(tt.want, res.StructuredContent); res.IsError || diff != "" {
				t.Errorf("whoami (-want +got):\n%s%s", diff, text(res))
			}
		}
	})
	t.Run("each tenant sees its own tickets", func(t *testing.T) {
		if got := ticketTenants(t, acme); got != "acme acme" {
			t.Errorf("acme sees %q", got)
		}
		if got := ticketTenants(t, globex); got != "globex" {
			t.Errorf("globex sees %q", got)
		}
		if got := ticketTenants(t, admin); got != "globex acme acme" {
			t.Errorf("the admin sees %q", got)
		}
	})
	t.Run("a ticket is opened for the caller's tenant", func(t *testing.T) {
		res := callTool(t, acme, "open_ticket", map[string]any{"title": "Laptop won't boot'); DELETE FROM helpdesk.tickets; --"})
		if res.IsError || !strings.Contains(text(res), "1 rows affected") {
			t.Fatalf("open_ticket: %s", text(res))
		}
		if got := ticketTenants(t, globex); got != "globex" {
			t.Errorf("after acme opened one, globex sees %q", got)
		}
		var tenant, by string
		err := db.QueryRow("SELECT tenant, opened_by FROM helpdesk.tickets WHERE title LIKE 'Laptop%'").Scan(&tenant, &by)
		if err != nil || tenant != "acme" || by != "mcp-reader" {
			t.Errorf("the new ticket: %s by %s (%v)", tenant, by, err)
		}
	})
	t.Run("only admins close tickets", func(t *testing.T) {
		if got := toolNames(t, acme); !cmp.Equal(got, []string{"list_tickets", "open_ticket", "whoami"}) {
			t.Errorf("an agent lists %v", got)
		}
		res := callTool(t, admin, "close_ticket", map[string]any{"id": 3})
		if res.IsError || !strings.Contains(text(res), "1 rows affected") {
			t.Errorf("close_ticket: %s", text(res))
		}
	})
}

// loadHelpdesk runs the example's schema.sql on the database at dsn.
func loadHelpdesk(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	schema, err := os.ReadFile("../../examples/helpdesk/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(string(schema)); err != nil {
		t.Fatalf("loading schema.sql: %v", err)
	}
	return db
}

// ticketTenants lists the tenants of the tickets a caller sees, newest
// first.
func ticketTenants(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res := callTool(t, cs, "list_tickets", nil)
	if res.IsError {
		t.Fatalf("list_tickets: %s", text(res))
	}
	var tenants []string
	rows, _ := res.StructuredContent.(map[string]any)["rows"].([]any)
	for _, r := range rows {
		tenants = append(tenants, fmt.Sprint(r.(map[string]any)["tenant"]))
	}
	return strings.Join(tenants, " ")
}
