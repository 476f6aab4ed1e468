package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// TestStdioClientDiesLeavesNoQuery: a client that dies during a call
// (both pipes closed) leaves no query running on PostgreSQL.
func TestStdioClientDiesLeavesNoQuery(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	path, marker := sleepyConfig(t, "postgres", dsn, "SELECT pg_sleep(300), '%s' AS marker")
	running := queryRunning(t, dsn, marker)
	dieDuringCall(t, path, running)
	eventually(t, "the query after the client died", func() bool { return !running() })
}

// sleepyConfig writes a config whose one tool, sleepy, runs query (holding
// marker) on the given sql driver, and returns its path and the marker.
func sleepyConfig(t *testing.T, driver, dsn, query string) (path, marker string) {
	t.Helper()
	marker = fmt.Sprintf("mcpgen-dies-%d", time.Now().UnixNano())
	path = filepath.Join(t.TempDir(), driver+".yaml")
	cfg := fmt.Sprintf(`version: 1
server:
  stdio: {shutdown_timeout: 200ms}
backends:
  db: {kind: sql, driver: %s, dsn: %q}
tools:
  - name: sleepy
    description: Sleeps in the database.
    handler:
      backend: db
      query: "%s"
      timeout: 10m
`, driver, dsn, fmt.Sprintf(query, marker))
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, marker
}

// dieDuringCall starts mcpgen on path, starts sleepy, waits until running
// says the query runs, then closes the client's pipes and waits for mcpgen
// to exit.
func dieDuringCall(t *testing.T, path string, running func() bool) {
	t.Helper()
	c := startRaw(t, path)
	c.initialize()
	c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sleepy","arguments":{}}}`)
	eventually(t, "the query to start", running)
	_ = c.in.Close() // the client dies: its end of both pipes closes
	for range c.lines {
	}
	if err := c.wait(); err != nil {
		t.Errorf("mcpgen exited with %v", err)
	}
}

// queryRunning returns a function reporting whether a statement holding
// marker is running on the PostgreSQL server at dsn.
func queryRunning(t *testing.T, dsn, marker string) func() bool {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return func() bool {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`, marker).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
}

// TestStdioClientDiesLeavesNoQueryMariaDB: the same on MariaDB, where the
// driver leaves a canceled statement running and mcpgen kills it (KILL
// QUERY) before it exits.
func TestStdioClientDiesLeavesNoQueryMariaDB(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("MCPGEN_TEST_MYSQL_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_MYSQL_DSN is not set")
	}
	path, marker := sleepyConfig(t, "mysql", dsn, "SELECT SLEEP(300), '%s' AS marker")
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	running := func() bool {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM information_schema.processlist WHERE info LIKE CONCAT('%', ?, '%') AND id <> CONNECTION_ID()`, marker).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	dieDuringCall(t, path, running)
	if running() { // the server would notice the closed connection only seconds later
		t.Error("the query still runs after mcpgen exited: it did not kill it")
	}
}
