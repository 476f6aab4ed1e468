package sqlkind

import (
	"context"
	"database/sql"
	"runtime/metrics"
	"testing"
)

// TestWatchSQLiteIdleCostsNoGoroutine: watching a call that is not
// canceled starts no goroutine (the watchdog starts on cancellation only;
// TestCancelAnyTime checks that it then stops the query).
func TestWatchSQLiteIdleCostsNoGoroutine(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := &session{conn: conn}
	if sqliteHandle(conn) == 0 {
		t.Fatal("no SQLite handle under the connection")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const calls = 50
	before := goroutinesCreated()
	for range calls {
		watchSQLite(ctx, s)()
	}
	if n := goroutinesCreated() - before; n > 0 {
		t.Errorf("%d goroutines created by %d watches of calls that were not canceled; want 0", n, calls)
	}
}

func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
