package sqlkind

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
)

// dialect is what differs between the supported databases: placeholder
// syntax, how a read-only transaction starts, the server-side timeout and how
// lists are bound.
type dialect struct {
	name   string
	syntax syntax
	// arrays: the driver binds Go slices as arrays (PostgreSQL); elsewhere
	// lists are bound as JSON text.
	arrays bool
	// begin starts the transaction of one call on conn.
	begin func(ctx context.Context, conn *sql.Conn, readOnly bool, timeout time.Duration, noServerTimeout *atomic.Bool) (*sql.Tx, error)
	// end undoes per-connection settings before conn goes back to the pool.
	end func(conn *sql.Conn, readOnly bool)
}

var (
	sqliteDialect = &dialect{name: "sqlite", begin: beginSQLite, end: endSQLite,
		syntax: syntax{backtick: true, brackets: true}}
	postgresDialect = &dialect{name: "postgres", arrays: true, begin: beginPostgres, end: func(*sql.Conn, bool) {},
		syntax: syntax{dollarQuotes: true, numbered: true}}
	mysqlDialect = &dialect{name: "mysql", begin: beginMySQL, end: func(*sql.Conn, bool) {},
		syntax: syntax{backslash: true, doubleString: true, backtick: true, hashComment: true}}
)

// dialects by the `driver:` names.
func dialectOf(driverName string) *dialect {
	switch driverName {
	case "sqlite":
		return sqliteDialect
	case "postgres":
		return postgresDialect
	case "mysql":
		return mysqlDialect
	}
	return nil
}

// beginSQLite enforces read-only mode with PRAGMA query_only on the
// connection: SQLite then refuses every write, whatever the statement says.
func beginSQLite(ctx context.Context, conn *sql.Conn, readOnly bool, _ time.Duration, _ *atomic.Bool) (*sql.Tx, error) {
	if readOnly {
		if _, err := conn.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
			return nil, err
		}
	}
	return conn.BeginTx(ctx, nil)
}

// endSQLite switches query_only off again; a connection where that fails is
// discarded rather than returned to the pool in the wrong mode.
func endSQLite(conn *sql.Conn, readOnly bool) {
	if !readOnly {
		return
	}
	if _, err := conn.ExecContext(context.Background(), "PRAGMA query_only = OFF"); err != nil {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

// beginPostgres starts a READ ONLY transaction when asked, with the
// statement timeout also set on the server.
func beginPostgres(ctx context.Context, conn *sql.Conn, readOnly bool, timeout time.Duration, _ *atomic.Bool) (*sql.Tx, error) {
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: readOnly})
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		q := fmt.Sprintf("SET LOCAL statement_timeout = %d", max(timeout.Milliseconds(), 1))
		if _, err := tx.ExecContext(ctx, q); err != nil {
			_ = tx.Rollback()
			return nil, err
		}
	}
	return tx, nil
}

// beginMySQL sets MariaDB's max_statement_time for the session (MySQL has
// no such variable; after the first refusal it is not tried again), then
// starts a READ ONLY transaction when asked.
func beginMySQL(ctx context.Context, conn *sql.Conn, readOnly bool, timeout time.Duration, noServerTimeout *atomic.Bool) (*sql.Tx, error) {
	if timeout > 0 && !noServerTimeout.Load() {
		q := fmt.Sprintf("SET SESSION max_statement_time = %.3f", timeout.Seconds())
		if _, err := conn.ExecContext(ctx, q); err != nil {
			var myErr *mysql.MySQLError
			if !errors.As(err, &myErr) || myErr.Number != errUnknownSystemVariable {
				return nil, err
			}
			noServerTimeout.Store(true)
		}
	}
	return conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: readOnly})
}

// errUnknownSystemVariable is MySQL's ER_UNKNOWN_SYSTEM_VARIABLE.
const errUnknownSystemVariable = 1193

// bindValue converts an evaluated parameter into what the driver binds:
// lists become arrays where the database has them and JSON text elsewhere;
// objects are JSON text.
func (d *dialect) bindValue(v any) (any, error) {
	switch v := v.(type) {
	case []any:
		if d.arrays {
			return typedSlice(v), nil
		}
		return jsonText(v)
	case map[string]any:
		return jsonText(v)
	}
	return v, nil
}

func jsonText(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// typedSlice turns a list whose elements share one type into a slice of that
// type, which the PostgreSQL driver encodes as an array.
func typedSlice(v []any) any {
	if len(v) == 0 {
		return []string{}
	}
	switch v[0].(type) {
	case string:
		return sliceOf[string](v)
	case int64:
		return sliceOf[int64](v)
	case float64:
		return sliceOf[float64](v)
	case bool:
		return sliceOf[bool](v)
	}
	return v
}

func sliceOf[T any](v []any) any {
	out := make([]T, len(v))
	for i, e := range v {
		x, ok := e.(T)
		if !ok {
			return v
		}
		out[i] = x
	}
	return out
}
