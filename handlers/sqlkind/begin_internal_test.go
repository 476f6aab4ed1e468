package sqlkind

import (
	"context"
	"database/sql"
	"os"
	"testing"
	"time"
)

// A call's transaction is not bound to the call's context. database/sql
// rolls back a transaction whose context ends on a goroutine of its own,
// and that rollback closes the call's *sql.Conn while the dialect's end
// may be using it: a nil-pointer panic inside database/sql, seen when a
// PostgreSQL call was canceled. The call rolls back itself, always.
func TestTransactionOutlivesItsContext(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, driver, env string
		dialect           *dialect
	}{
		{"postgres", "pgx", "MCPGEN_TEST_POSTGRES_DSN", postgresDialect},
		{"mysql", "mysql", "MCPGEN_TEST_MYSQL_DSN", mysqlDialect},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dsn := os.Getenv(tt.env)
			if dsn == "" {
				t.Skip(tt.env + " is not set")
			}
			db, err := sql.Open(tt.driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx, cancel := context.WithCancel(context.Background())
			tx, err := tt.dialect.begin(ctx, &session{pool: db, conn: conn, readOnly: true, server: &serverState{}})
			if err != nil {
				t.Fatal(err)
			}
			cancel()
			defer func() { _ = tx.Rollback() }()
			for range 20 { // database/sql's watcher rolls back within moments, when it does
				if _, err := tx.ExecContext(context.Background(), "SELECT 1"); err != nil {
					t.Fatalf("the transaction ended with its context: %v", err)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}
