package sqlkind

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/go-sql-driver/mysql"
)

// errUnknownSystemVariable is MySQL's ER_UNKNOWN_SYSTEM_VARIABLE.
const errUnknownSystemVariable = 1193

// beginMySQL sets MariaDB's max_statement_time for the session (MySQL has
// no such variable; after the first refusal it is not tried again), learns
// the connection's id for KILL QUERY, then starts a READ ONLY transaction
// when asked.
func beginMySQL(ctx context.Context, s *session) (*sql.Tx, error) {
	if s.timeout > 0 && !s.server.noTimeout.Load() {
		q := fmt.Sprintf("SET SESSION max_statement_time = %.3f", s.timeout.Seconds())
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			var myErr *mysql.MySQLError
			if !errors.As(err, &myErr) || myErr.Number != errUnknownSystemVariable {
				return nil, err
			}
			s.server.noTimeout.Store(true)
		}
	}
	id, err := s.server.connID(ctx, s.conn)
	if err != nil {
		return nil, err
	}
	s.id = id
	tx, err := s.conn.BeginTx(txContext(ctx), &sql.TxOptions{ReadOnly: s.readOnly}) // see session.readOnly
	if err != nil {
		return nil, err
	}
	if err := s.who.set(ctx, tx); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return tx, nil
}

// endMySQL sets the caller's user variables to NULL before the connection
// goes back to the pool, whatever way the call ended; a connection where
// that fails is discarded rather than handed to another caller.
func endMySQL(s *session) {
	if s.who == nil || s.who.id.resetSQL == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), resetTimeout)
	defer cancel()
	if _, err := s.conn.ExecContext(ctx, s.who.id.resetSQL); err != nil {
		_ = s.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

// resetTimeout bounds the reset of a connection's user variables.
const resetTimeout = 5 * time.Second

// connID returns the server's id of conn, asked once per connection.
func (st *serverState) connID(ctx context.Context, conn *sql.Conn) (uint64, error) {
	var key any
	_ = conn.Raw(func(dc any) error { key = dc; return nil })
	st.mu.Lock()
	id, ok := st.ids[key]
	st.mu.Unlock()
	if ok {
		return id, nil
	}
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return 0, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ids == nil || len(st.ids) >= maxRememberedConns {
		st.ids = map[any]uint64{} // forget connections long closed
	}
	st.ids[key] = id
	return id, nil
}

// maxRememberedConns bounds the connection ids a backend remembers.
const maxRememberedConns = 256

// killQuery stops the statement of a canceled call on the server: the
// driver only drops the connection, and MySQL would run the statement on
// to its end.
func killQuery(s *session) {
	if s.id == 0 {
		return
	}
	s.server.kills.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = s.pool.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", s.id))
	})
}

// readOnlyConnector makes connections whose session is READ ONLY: MySQL
// and MariaDB then refuse DDL as well as DML, even outside a transaction
// (a READ ONLY transaction alone does not stop DDL, which commits it
// first).
type readOnlyConnector struct{ driver.Connector }

// Connect opens a connection and makes its session read-only.
func (c readOnlyConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ex, ok := conn.(driver.ExecerContext)
	if !ok {
		_ = conn.Close()
		return nil, errors.New("the mysql driver cannot run statements on a new connection")
	}
	if _, err := ex.ExecContext(ctx, "SET SESSION TRANSACTION READ ONLY", nil); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("making the connection read-only: %w", err)
	}
	return conn, nil
}
