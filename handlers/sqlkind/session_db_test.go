package sqlkind_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionDB is a database set up for the session tests: a table of
// documents of two tenants that each caller sees only its own of,
// through the database's own rules.
type sessionDB struct {
	driver string
	db     *sql.DB
	config string // the server's config
	// role is the role a tenant's call runs as ("" where there is none).
	role string
	// table holds the documents.
	table string
}

const sessionServer = `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}], claims: {tenant: string, role: string}}}}
`

// postgresSession makes a schema whose table docs has a row-level
// security policy: role {M} sees the rows of the tenant in app.tenant;
// role {A} sees all.
func postgresSession(t testing.TB) *sessionDB {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	db := open(t, "pgx", dsn)
	s := fmt.Sprintf("mcpgen_sess_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	member, admin := s+"_member", s+"_admin"
	run(t, db,
		"CREATE SCHEMA "+s,
		"CREATE TABLE "+s+".docs (tenant TEXT NOT NULL, body TEXT NOT NULL)",
		"INSERT INTO "+s+".docs VALUES ('a', 'a1'), ('a', 'a2'), ('b', 'b1'), ('b', 'b2'), ('b', 'b3')",
		"ALTER TABLE "+s+".docs ENABLE ROW LEVEL SECURITY",
		"CREATE ROLE "+member+" NOLOGIN", "CREATE ROLE "+admin+" NOLOGIN",
		"GRANT USAGE ON SCHEMA "+s+" TO "+member+", "+admin,
		"GRANT SELECT, INSERT, UPDATE ON "+s+".docs TO "+member+", "+admin,
		"CREATE POLICY tenant ON "+s+".docs TO "+member+" USING (tenant = current_setting('app.tenant', true))",
		"CREATE POLICY everything ON "+s+".docs TO "+admin+" USING (true)",
	)
	t.Cleanup(func() {
		run(t, db, "DROP SCHEMA "+s+" CASCADE", "DROP ROLE "+member, "DROP ROLE "+admin)
	})
	cfg := strings.NewReplacer("{DSN}", dsn, "{S}", s, "{M}", member, "{A}", admin).Replace(sessionServer + `backends:
  db:
    kind: sql
    driver: postgres
    dsn: "{DSN}"
    max_open: 4
    session:
      roles: [{M}, {A}]
      role: "${{ auth.claims.role }}"
      settings:
        app.tenant: "${{ auth.claims.tenant }}"
        app.subject: "${{ auth.subject }}"
tools:
  - {name: docs, description: d, handler: {backend: db, query: "SELECT tenant, body, current_setting('app.tenant', true) AS seen, current_user AS role FROM {S}.docs ORDER BY body"}}
  - {name: docs_paged, description: d, handler: {backend: db, query: "SELECT tenant, body, current_setting('app.tenant', true) AS seen FROM {S}.docs", page: {keyset: [body], size: 1}}}
  - {name: write_paged, description: a paged read-only tool that writes, handler: {backend: db, query: "WITH w AS (INSERT INTO {S}.docs VALUES ('a', 'paged') RETURNING body) SELECT body FROM w", page: {keyset: [body]}}}
  - {name: fail, description: d, handler: {backend: db, query: "SELECT 1 / (count(*) - count(*)) AS x FROM {S}.docs"}}
  - {name: slow, description: d, handler: {backend: db, query: "SELECT pg_sleep(0.5) AS s, (SELECT count(*) FROM {S}.docs) AS n", timeout: 60ms}}
  - {name: cancelled, description: d, handler: {backend: db, query: "SELECT pg_sleep(2) AS s, (SELECT count(*) FROM {S}.docs) AS n", timeout: 10s}}
  - name: peek
    description: a tool of the same pool with a session of its own, which sets no tenant
    handler: {backend: db, query: "SELECT current_setting('app.tenant', true) AS seen, current_user AS role", session: {settings: {app.other: x}}}
  - name: peek_rw
    description: the same, on the connections of the tools that write
    handler: {backend: db, query: "SELECT current_setting('app.tenant', true) AS seen, current_user AS role", read_only: false, session: {settings: {app.other: x}}}
  - {name: echo, description: d, handler: {backend: db, query: "SELECT current_setting('app.tenant', true) AS seen, current_setting('app.subject', true) AS subject"}}
  - {name: write_ro, description: a read-only tool that writes, handler: {backend: db, query: "INSERT INTO {S}.docs VALUES ('a', 'written')"}}
  - {name: add, description: d, handler: {backend: db, exec: "INSERT INTO {S}.docs VALUES ('a', 'added')"}}
  - {name: touch, description: a write that commits, handler: {backend: db, exec: "UPDATE {S}.docs SET body = body WHERE tenant = 'none'"}}
`)
	return &sessionDB{driver: "postgres", db: db, config: cfg, role: member, table: s + ".docs"}
}

// mysqlSession makes a view over the table docs that shows the rows of
// the tenant in @`app.tenant`, read by a function (a view cannot read a
// variable itself).
func mysqlSession(t *testing.T) *sessionDB {
	dsn := os.Getenv("MCPGEN_TEST_MYSQL_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_MYSQL_DSN is not set")
	}
	db := open(t, "mysql", dsn)
	s := fmt.Sprintf("mcpgen_sess_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	run(t, db,
		"CREATE TABLE "+s+" (tenant VARCHAR(64) NOT NULL, body VARCHAR(64) NOT NULL)",
		"INSERT INTO "+s+" VALUES ('a', 'a1'), ('a', 'a2'), ('b', 'b1'), ('b', 'b2'), ('b', 'b3')",
		"CREATE FUNCTION "+s+"_tenant() RETURNS VARCHAR(64) NOT DETERMINISTIC NO SQL RETURN @`app.tenant`",
		"CREATE FUNCTION "+s+"_fail() RETURNS INT NOT DETERMINISTIC NO SQL BEGIN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'boom'; RETURN 1; END",
		"CREATE SQL SECURITY DEFINER VIEW "+s+"_mine AS SELECT tenant, body FROM "+s+" WHERE tenant = "+s+"_tenant()",
	)
	t.Cleanup(func() {
		run(t, db, "DROP VIEW "+s+"_mine", "DROP FUNCTION "+s+"_tenant", "DROP FUNCTION "+s+"_fail", "DROP TABLE "+s)
	})
	cfg := strings.NewReplacer("{DSN}", dsn, "{S}", s).Replace(sessionServer + `backends:
  db:
    kind: sql
    driver: mysql
    dsn: "{DSN}"
    max_open: 4
    session:
      settings:
        app.tenant: "${{ auth.claims.tenant }}"
        app.subject: "${{ auth.subject }}"
tools:
  - {name: docs, description: d, handler: {backend: db, query: "SELECT tenant, body, @` + "`app.tenant`" + ` AS seen, '' AS role FROM {S}_mine ORDER BY body"}}
  - {name: docs_paged, description: d, handler: {backend: db, query: "SELECT tenant, body, @` + "`app.tenant`" + ` AS seen FROM {S}_mine", page: {keyset: [body], size: 1}}}
  - {name: fail, description: d, handler: {backend: db, query: "SELECT {S}_fail() AS x FROM {S}_mine"}}
  - {name: slow, description: d, handler: {backend: db, query: "SELECT SLEEP(0.5) AS s, (SELECT count(*) FROM {S}_mine) AS n", timeout: 60ms}}
  - {name: cancelled, description: d, handler: {backend: db, query: "SELECT SLEEP(2) AS s, (SELECT count(*) FROM {S}_mine) AS n", timeout: 10s}}
  - name: peek
    description: a tool of the same pool with a session of its own, which sets no tenant
    handler: {backend: db, query: "SELECT @` + "`app.tenant`" + ` AS seen, '' AS role", session: {settings: {app.other: x}}}
  - name: peek_rw
    description: the same, on the connections of the tools that write
    handler: {backend: db, query: "SELECT @` + "`app.tenant`" + ` AS seen, '' AS role", read_only: false, session: {settings: {app.other: x}}}
  - {name: echo, description: d, handler: {backend: db, query: "SELECT @` + "`app.tenant`" + ` AS seen, @` + "`app.subject`" + ` AS subject"}}
  - {name: write_ro, description: a read-only tool that writes, handler: {backend: db, query: "INSERT INTO {S} VALUES ('a', 'written')"}}
  - {name: add, description: d, handler: {backend: db, exec: "INSERT INTO {S} VALUES ('a', 'added')"}}
  - {name: touch, description: a write that commits, handler: {backend: db, exec: "UPDATE {S} SET body = body WHERE tenant = 'none'"}}
`)
	return &sessionDB{driver: "mysql", db: db, config: cfg, table: s}
}

func run(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// caller is a context carrying an authenticated caller with claims.
func caller(subject string, claims map[string]any) context.Context {
	return auth.WithCaller(context.Background(), auth.NewCaller(auth.Caller{Subject: subject, Claims: claims}, ""))
}

// rows returns the rows of a tool's structured result.
func rows(res *mcp.CallToolResult) []map[string]any {
	m, _ := res.StructuredContent.(map[string]any)
	list, _ := m["rows"].([]any)
	var out []map[string]any
	for _, r := range list {
		out = append(out, r.(map[string]any))
	}
	return out
}

func TestSessionPostgres(t *testing.T) { testSession(t, postgresSession(t)) }

func TestSessionMySQL(t *testing.T) { testSession(t, mysqlSession(t)) }

func testSession(t *testing.T, d *sessionDB) {
	srv := handlertest.Build(t, unchecked(), d.config, nil)
	t.Run("each caller sees its own", func(t *testing.T) { testOwnRows(t, d, srv) })
	t.Run("hostile claims", func(t *testing.T) { testHostileClaims(t, d, srv) })
	t.Run("read-only under the session", func(t *testing.T) { testReadOnlySession(t, d, srv) })
	t.Run("interleaved callers", func(t *testing.T) { testInterleaved(t, d, srv) })
	t.Run("pages", func(t *testing.T) { testPagedSession(t, d, srv) })
}

func testOwnRows(t *testing.T, d *sessionDB, srv *runtime.Server) {
	for tenant, want := range map[string]string{"a": "a1 a2", "b": "b1 b2 b3", "nobody": ""} {
		res := handlertest.Call(t, caller("u-"+tenant, map[string]any{"tenant": tenant, "role": d.role}), srv, "docs", `{}`)
		var got []string
		for _, r := range rows(res) {
			got = append(got, fmt.Sprint(r["body"]))
		}
		if res.IsError || strings.Join(got, " ") != want {
			t.Errorf("tenant %s sees %q (%s), want %q", tenant, got, handlertest.Text(res), want)
		}
	}
	if d.driver != "postgres" {
		return
	}
	// the admin role's policy shows everything
	admin := strings.Replace(d.role, "_member", "_admin", 1)
	res := handlertest.Call(t, caller("boss", map[string]any{"tenant": "a", "role": admin}), srv, "docs", `{}`)
	if n := len(rows(res)); res.IsError || n != 5 || rows(res)[0]["role"] != admin {
		t.Errorf("the admin role sees %d rows: %s", n, handlertest.Text(res))
	}
	// a role outside the allow-list never reaches the database
	for _, role := range []string{"postgres", d.role + " ", `"; DROP SCHEMA x; --`, strings.ToUpper(d.role)} {
		res := handlertest.Call(t, caller("eve", map[string]any{"tenant": "a", "role": role}), srv, "docs", `{}`)
		if !res.IsError || !strings.Contains(handlertest.Text(res), "is not one of the roles this tool may assume") {
			t.Errorf("role %q: %s", role, handlertest.Text(res))
		}
	}
}

// testHostileClaims: whatever a claim holds is bound as a value, read back
// exactly, or the call is refused before the database sees it.
func testHostileClaims(t *testing.T, d *sessionDB, srv *runtime.Server) {
	big := strings.Repeat("x", 60<<10)
	for _, v := range []string{`a'; DROP TABLE docs; --`, `a"; SET ROLE postgres; --`, "a;b;c", `\' OR 1=1 --`, "$1 ? :x @x",
		"ünï\u2019cødé", big} {
		res := handlertest.Call(t, caller(v, map[string]any{"tenant": v, "role": d.role}), srv, "echo", `{}`)
		r := rows(res)
		if res.IsError || len(r) != 1 || r[0]["seen"] != v || r[0]["subject"] != v {
			t.Errorf("claim %.60q: %.300s", v, handlertest.Text(res))
		}
	}
	for v, want := range map[string]string{"a\x00b": "NUL", strings.Repeat("y", 1<<20): "more than the 65536"} {
		res := handlertest.Call(t, caller("u", map[string]any{"tenant": v, "role": d.role}), srv, "echo", `{}`)
		if !res.IsError || !strings.Contains(handlertest.Text(res), want) {
			t.Errorf("claim %.20q: %.300s", v, handlertest.Text(res))
		}
	}
	// a claim that is not there, or of another type, refuses the call
	for _, claims := range []map[string]any{{"role": d.role}, {"tenant": 7, "role": d.role}} {
		res := handlertest.Call(t, caller("u", claims), srv, "echo", `{}`)
		if !res.IsError || !strings.Contains(handlertest.Text(res), "app.tenant: the caller's identity does not provide it") {
			t.Errorf("claims %v: %s", claims, handlertest.Text(res))
		}
	}
	var n int
	if err := d.db.QueryRow("SELECT count(*) FROM " + d.table).Scan(&n); err != nil || n != 5 {
		t.Errorf("the table has %d rows (%v), want its 5", n, err)
	}
}

// testReadOnlySession: the role may insert, and a read-only tool still
// cannot; a tool that writes can.
func testReadOnlySession(t *testing.T, d *sessionDB, srv *runtime.Server) {
	ctx := caller("u-a", map[string]any{"tenant": "a", "role": d.role})
	if res := handlertest.Call(t, ctx, srv, "write_ro", `{}`); !res.IsError {
		t.Errorf("a read-only tool wrote under the session: %s", handlertest.Text(res))
	}
	if res := handlertest.Call(t, ctx, srv, "add", `{}`); res.IsError {
		t.Errorf("a tool that writes, under the session: %s", handlertest.Text(res))
	}
	res := handlertest.Call(t, ctx, srv, "docs", `{}`)
	var bodies []string
	for _, r := range rows(res) {
		bodies = append(bodies, fmt.Sprint(r["body"]))
	}
	if got := strings.Join(bodies, " "); got != "a1 a2 added" {
		t.Errorf("after the writes, tenant a sees %q", got)
	}
	run(t, d.db, "DELETE FROM "+d.table+" WHERE body = 'added'")
}

// interleaving counts what the interleaved calls did.
type interleaving struct {
	calls, ok, failed, timedOut, canceled, peeks, commits atomic.Int64
	crossRows, wrongSettings                              atomic.Int64
	// docsFailed counts reads that failed, firstFailure says why: a
	// failure shows nothing of anyone, and is told apart from a leak.
	docsFailed   atomic.Int64
	firstFailure atomic.Pointer[string]
}

// testInterleaved runs two callers of different tenants over the same
// small pool, 16 at a time, with calls that fail, time out and are
// canceled mid-query among them: no call may see the other caller's rows
// or settings, and a call with no tenant of its own must see none.
func testInterleaved(t *testing.T, d *sessionDB, srv *runtime.Server) {
	const workers, perWorker = 16, 320 // 5,120 calls
	want := map[string][]string{"a": {"a1", "a2"}, "b": {"b1", "b2", "b3"}}
	var c interleaving
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range perWorker {
				tenant := []string{"a", "b"}[r.IntN(2)]
				ctx := caller("user-"+tenant, map[string]any{"tenant": tenant, "role": d.role})
				c.calls.Add(1)
				c.one(t, d, srv, ctx, r, tenant, want[tenant])
			}
		})
	}
	wg.Wait()
	t.Logf("%s: %d calls by 2 callers, %d workers, pool of 4: %d read their rows, %d failed, %d timed out, %d canceled, %d committed, %d had no tenant; "+
		"cross-caller rows seen: %d, wrong settings seen: %d", d.driver, c.calls.Load(), workers, c.ok.Load(), c.failed.Load(),
		c.timedOut.Load(), c.canceled.Load(), c.commits.Load(), c.peeks.Load(), c.crossRows.Load(), c.wrongSettings.Load())
	if n := c.docsFailed.Load(); n > 0 {
		t.Logf("%d reads failed, the first: %s", n, *c.firstFailure.Load())
		if n > 10 {
			t.Errorf("%d reads failed of %d", n, c.ok.Load()+n)
		}
	}
	if c.crossRows.Load() != 0 || c.wrongSettings.Load() != 0 {
		t.Errorf("%d rows and %d settings of another caller were seen", c.crossRows.Load(), c.wrongSettings.Load())
	}
	if c.failed.Load() == 0 || c.timedOut.Load() == 0 || c.canceled.Load() == 0 || c.peeks.Load() == 0 || c.commits.Load() == 0 {
		t.Errorf("every kind of call must have happened: %d failed, %d timed out, %d canceled, %d committed, %d peeks",
			c.failed.Load(), c.timedOut.Load(), c.canceled.Load(), c.commits.Load(), c.peeks.Load())
	}
}

// one makes one call of a random kind and checks what it saw.
func (c *interleaving) one(t *testing.T, d *sessionDB, srv *runtime.Server, ctx context.Context, r *rand.Rand, tenant string, want []string) {
	switch n := r.IntN(100); {
	case n < 6:
		if res := handlertest.Call(t, ctx, srv, "fail", `{}`); res.IsError {
			c.failed.Add(1)
		}
	case n < 12:
		if res := handlertest.Call(t, ctx, srv, "slow", `{}`); res.IsError && strings.Contains(handlertest.Text(res), "timed out") {
			c.timedOut.Add(1)
		}
	case n < 18:
		ctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(time.Duration(5+r.IntN(25))*time.Millisecond, cancel)
		if res := handlertest.Call(t, ctx, srv, "cancelled", `{}`); res.IsError {
			c.canceled.Add(1)
		}
		cancel()
	case n < 24:
		if res := handlertest.Call(t, ctx, srv, "touch", `{}`); !res.IsError {
			c.commits.Add(1)
		}
	case n < 32:
		c.peeks.Add(1)
		res := handlertest.Call(t, ctx, srv, []string{"peek", "peek_rw"}[n%2], `{}`)
		if res.IsError { // shows nothing of anyone: counted with the failed reads
			c.failedRead(res)
			return
		}
		// the session of the peek assumes no role and sets no tenant
		if row := rows(res)[0]; row["seen"] != nil && row["seen"] != "" || d.role != "" && row["role"] == d.role {
			c.wrongSettings.Add(1)
		}
	default:
		c.checkRows(t, d, handlertest.Call(t, ctx, srv, "docs", `{}`), tenant, want)
	}
}

// failedRead counts a read that failed, remembering the first failure's text.
func (c *interleaving) failedRead(res *mcp.CallToolResult) {
	c.docsFailed.Add(1)
	msg := handlertest.Text(res)
	c.firstFailure.CompareAndSwap(nil, &msg)
}

// checkRows counts the rows and settings of another caller in a result.
func (c *interleaving) checkRows(t *testing.T, d *sessionDB, res *mcp.CallToolResult, tenant string, want []string) {
	if res.IsError {
		c.failedRead(res)
		return
	}
	c.ok.Add(1)
	got := rows(res)
	if len(got) != len(want) {
		t.Errorf("tenant %s got %d rows, want %d", tenant, len(got), len(want))
	}
	for _, row := range got {
		if row["tenant"] != tenant {
			c.crossRows.Add(1)
		}
		if row["seen"] != tenant || (d.role != "" && row["role"] != d.role) {
			c.wrongSettings.Add(1)
		}
	}
}
