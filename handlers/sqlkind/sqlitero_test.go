package sqlkind

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
)

// readOnlyPool opens a backend on a new SQLite file with a table t of two
// rows and returns its read-only pool, limited to one connection.
func readOnlyPool(t *testing.T) *sql.DB {
	t.Helper()
	db := (&BackendConfig{Driver: "sqlite", DSN: "ro.db", MaxOpen: 1}).Open(&env{dir: t.TempDir()}).(*DB)
	t.Cleanup(func() { db.Close() })
	if _, err := db.db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2)"); err != nil {
		t.Fatal(err)
	}
	return db.ro
}

// TestCachedStatementBusy runs a query while rows of the same query are
// still open on the connection: the second must not reuse (and reset) the
// statement the first is reading from.
func TestCachedStatementBusy(t *testing.T) {
	t.Parallel()
	conn, err := readOnlyPool(t).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = "SELECT id FROM t ORDER BY id"
	outer, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer outer.Close()
	var got []int
	for len(got) < 6 && outer.Next() { // a reset statement would start again
		var id, n int
		if err := outer.Scan(&id); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM ("+q+")").Scan(&n); err != nil {
			t.Fatal(err)
		}
		inner, err := conn.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for inner.Next() {
			n--
		}
		inner.Close()
		got = append(got, id, n)
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 0 2 0]" {
		t.Errorf("outer rows and inner row counts left = %v, want [1 0 2 0]", got)
	}
}

// TestStatementCacheBound runs more distinct queries than a connection
// keeps prepared: those beyond the bound still run.
func TestStatementCacheBound(t *testing.T) {
	t.Parallel()
	pool := readOnlyPool(t)
	for i := range maxCachedStmts + 10 {
		var n int
		if err := pool.QueryRow(fmt.Sprintf("SELECT %d + count(*) FROM t", i)).Scan(&n); err != nil || n != i+2 {
			t.Fatalf("query %d: got %d, %v", i, n, err)
		}
	}
	conn, err := pool.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.Raw(func(dc any) error {
		if got := len(dc.(*readOnlyConn).stmts); got != maxCachedStmts {
			t.Errorf("%d statements kept, want %d", got, maxCachedStmts)
		}
		return nil
	})
}
