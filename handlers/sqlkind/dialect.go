package sqlkind

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
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
	// begin starts the transaction of one call on s.conn.
	begin func(ctx context.Context, s *session) (*sql.Tx, error)
	// end undoes per-connection settings before s.conn goes back to the pool.
	end func(s *session)
	// cancel stops on the server a statement whose call was canceled, where
	// the driver does not (nil: the driver does).
	cancel func(s *session)
	// watch, if set, takes over cancellation from the driver: it stops the
	// statements of s when ctx is done, until stop is called; they run
	// under a context without cancellation.
	watch func(ctx context.Context, s *session) (stop func())
	// readsAlone: a connection of the read-only pool refuses every write
	// however a statement tries, so a read-only tool's single query needs
	// no transaction around it (sqlite, see readOnlySQLite). On postgres
	// and mysql a function can switch the session to read-write; there
	// the READ ONLY transaction stays.
	readsAlone bool
}

// session is one call's connection and the settings it runs with.
type session struct {
	pool *sql.DB
	conn *sql.Conn
	// readOnly: the call is read-only. Its transaction begins READ ONLY
	// even on a connection of the read-only pool, whose session setting a
	// stored function can turn off (SET SESSION tx_read_only = 0 in MySQL,
	// set_config in PostgreSQL): a transaction's access mode, once it has
	// begun, cannot be changed.
	readOnly bool
	// enforced: the connection comes from the read-only pool.
	enforced bool
	timeout  time.Duration
	server   *serverState
	id       uint64 // MySQL: the connection's id, for KILL QUERY
	// who is the caller's role and settings for this call; nil for none.
	who *callIdentity
}

// serverState is what a backend learns about its server, shared by its
// handlers.
type serverState struct {
	noTimeout atomic.Bool // the server refused max_statement_time
	mu        sync.Mutex
	ids       map[any]uint64 // MySQL connection ids by driver connection
	// kills are the KILL QUERY statements on their way: closing the
	// backend waits for them, so that a call canceled as the process
	// stops (its client gone) leaves no statement running.
	kills sync.WaitGroup
}

var (
	sqliteDialect = &dialect{name: "sqlite", begin: beginSQLite, end: endSQLite, watch: watchSQLite,
		readsAlone: true, syntax: syntax{backtick: true, brackets: true}}
	postgresDialect = &dialect{name: "postgres", arrays: true, begin: beginPostgres, end: endPostgres,
		syntax: syntax{dollarQuotes: true, numbered: true}}
	mysqlDialect = &dialect{name: "mysql", begin: beginMySQL, end: endMySQL, cancel: killQuery,
		syntax: syntax{backslash: true, doubleString: true, backtick: true, hashComment: true, mysqlComments: true}}
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

// beginSQLite starts the transaction of a call. A read-only call on a
// connection shared with writers (an in-memory database) turns PRAGMA
// query_only on for the call; endSQLite turns it off again. A connection
// of the read-only pool has it on for good: its authorizer refuses to turn
// it off (see readOnlySQLite).
func beginSQLite(ctx context.Context, s *session) (*sql.Tx, error) {
	if s.readOnly && !s.enforced {
		if _, err := s.conn.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
			return nil, err
		}
	}
	return s.conn.BeginTx(txContext(ctx), nil)
}

// endSQLite switches query_only off again on a connection shared with
// writers; a connection where that fails is discarded rather than returned
// to the pool in the wrong mode.
func endSQLite(s *session) {
	if !s.readOnly || s.enforced {
		return
	}
	if _, err := s.conn.ExecContext(context.Background(), "PRAGMA query_only = OFF"); err != nil {
		_ = s.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

// txContext is the context a call's transaction begins with: ctx, without
// its cancellation. database/sql rolls back a transaction whose context
// ends on a goroutine of its own, and closes the call's *sql.Conn there
// when the rollback finds the connection bad, while the dialect's end may
// be using it (database/sql then hands out a nil driver connection: a
// panic). The call rolls back itself, whatever way it ends; its statements
// are still canceled through their own contexts.
func txContext(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// beginPostgres starts a READ ONLY transaction when asked, with the
// statement timeout also set on the server, and the caller's role and
// settings: SET LOCAL and set_config(…, true) last only as long as the
// transaction, so nothing of a caller outlives the call on a pooled
// connection, however the call ends.
func beginPostgres(ctx context.Context, s *session) (*sql.Tx, error) {
	tx, err := s.conn.BeginTx(txContext(ctx), &sql.TxOptions{ReadOnly: s.readOnly})
	if err != nil {
		return nil, err
	}
	var local []string
	if s.timeout > 0 {
		local = append(local, fmt.Sprintf("SET LOCAL statement_timeout = %d", max(s.timeout.Milliseconds(), 1)))
	}
	if r := s.who.roleStatement(); r != "" {
		local = append(local, r)
	}
	if len(local) > 0 {
		// no values: one message, the simple protocol
		if _, err := tx.ExecContext(ctx, strings.Join(local, "; ")); err != nil {
			_ = tx.Rollback()
			return nil, err
		}
	}
	if err := s.who.set(ctx, tx); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return tx, nil
}

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

// endPostgres discards a connection of the read-only pool whose session no
// longer defaults to read-only transactions (a function called
// set_config): the server reports the setting whenever it changes
// (PostgreSQL 14 and later), so this costs no round trip.
func endPostgres(s *session) {
	if !s.enforced {
		return
	}
	_ = s.conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return nil
		}
		if v := c.Conn().PgConn().ParameterStatus("default_transaction_read_only"); v != "" && v != "on" {
			return driver.ErrBadConn
		}
		return nil
	})
}
