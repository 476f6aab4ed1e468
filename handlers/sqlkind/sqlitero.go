package sqlkind

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// A connection of the read-only SQLite pool is read-only by construction:
// its DSN turns PRAGMA query_only on when it opens, and an authorizer
// (sqlite3_set_authorizer) then lets SQLite prepare statements that read
// and nothing else. No statement can write, turn query_only off, attach a
// database, or create a temporary table, view or trigger that would shadow
// a real one for the next call on the connection. A read-only call
// therefore needs no transaction and no per-call check: its one statement
// runs in autocommit, as it would through db.QueryContext.

// readOnlySQLite opens the connections of the read-only SQLite pool.
type readOnlySQLite struct{ driver.Connector }

// sqliteConn is what database/sql uses of a modernc.org/sqlite connection;
// readOnlyConn passes each of these on.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// Connect opens a connection and installs the authorizer; a connection
// that cannot have it is refused rather than handed out writable.
func (c readOnlySQLite) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	conn, ok := dc.(sqliteConn)
	db := driverHandle(dc)
	if !ok || db == 0 {
		_ = dc.Close()
		return nil, errors.New("making the connection read-only: not a modernc.org/sqlite connection")
	}
	tls := libc.NewTLS()
	if rc := sqlite3.Xsqlite3_set_authorizer(tls, db, authorizeReadPtr, 0); rc != sqlite3.SQLITE_OK {
		tls.Close()
		_ = dc.Close()
		return nil, fmt.Errorf("making the connection read-only: sqlite3_set_authorizer returned %d", rc)
	}
	return &readOnlyConn{sqliteConn: conn, db: db, tls: tls}, nil
}

// authorizeRead is the read-only pool's authorizer. SQLite asks it about
// each action of a statement it prepares (again when a schema change makes
// it prepare the statement anew); a denied action makes the statement fail
// with "not authorized".
func authorizeRead(_ *libc.TLS, _ uintptr, action int32, arg1, arg2, _, _ uintptr) int32 {
	switch action {
	case sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE:
		return sqlite3.SQLITE_OK
	case sqlite3.SQLITE_TRANSACTION:
		// BEGIN and ROLLBACK around the reads of a tool with several
		// statements; a transaction left open is caught by IsValid.
		return sqlite3.SQLITE_OK
	case sqlite3.SQLITE_PRAGMA:
		// arg1 is the pragma, arg2 its argument: without one a pragma
		// reads its setting; with one it sets it, unless it is one that
		// describes a table (also reached as pragma_table_info('t')).
		if arg2 == 0 || slices.Contains(describingPragmas, strings.ToLower(libc.GoString(arg1))) {
			return sqlite3.SQLITE_OK
		}
	}
	return sqlite3.SQLITE_DENY
}

// describingPragmas take a table or index name and only report on it.
var describingPragmas = []string{
	"table_info", "table_xinfo", "table_list", "index_info", "index_xinfo", "index_list",
	"foreign_key_list", "foreign_key_check",
}

// authorizeReadPtr is authorizeRead as a C function pointer: for
// modernc.org/sqlite that is the address of the Go func value, which for a
// top-level function is static and never moves.
var authorizeReadPtr = *(*uintptr)(unsafe.Pointer(&struct {
	f func(*libc.TLS, uintptr, int32, uintptr, uintptr, uintptr, uintptr) int32
}{authorizeRead}))

// readOnlyConn is a connection of the read-only SQLite pool. It keeps the
// statements it runs prepared, by text, so that a query run through
// database/sql's Conn.QueryContext costs what a prepared statement costs
// (database/sql runs a statement prepared on the pool on a pinned
// connection only inside a transaction).
type readOnlyConn struct {
	sqliteConn
	db    uintptr   // the sqlite3*
	tls   *libc.TLS // for the calls into SQLite made here
	stmts map[string]*cachedStmt
}

// cachedStmt is a statement kept prepared on a readOnlyConn; it is busy
// while rows read from it are open.
type cachedStmt struct {
	stmt interface {
		driver.Stmt
		driver.StmtQueryContext
	}
	busy bool
}

// maxCachedStmts bounds the statements a connection keeps prepared; a
// query beyond them, or one whose statement is busy, is prepared anew.
const maxCachedStmts = 256

// QueryContext runs query with the connection's prepared statement for it.
func (c *readOnlyConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r, err := c.query(ctx, query, args)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// query is QueryContext returning the rows as they are, for readRows.
func (c *readOnlyConn) query(ctx context.Context, query string, args []driver.NamedValue) (*cachedRows, error) {
	s, err := c.cached(ctx, query)
	if err != nil {
		return nil, err
	}
	var r sqliteRows
	if s == nil {
		r, err = sqliteRowsOf(c.sqliteConn.QueryContext(ctx, query, args))
	} else {
		r, err = sqliteRowsOf(s.stmt.QueryContext(ctx, args))
	}
	if err != nil {
		return nil, err
	}
	if s != nil {
		s.busy = true
	}
	return &cachedRows{sqliteRows: r, stmt: s}, nil
}

// cached returns the prepared statement for query, preparing it the first
// time, or nil when the cache is full or the statement busy.
func (c *readOnlyConn) cached(ctx context.Context, query string) (*cachedStmt, error) {
	if s, ok := c.stmts[query]; ok || len(c.stmts) >= maxCachedStmts {
		if ok && !s.busy {
			return s, nil
		}
		return nil, nil
	}
	ds, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	qs, ok := ds.(interface {
		driver.Stmt
		driver.StmtQueryContext
	})
	if !ok {
		_ = ds.Close()
		return nil, nil
	}
	if c.stmts == nil {
		c.stmts = map[string]*cachedStmt{}
	}
	s := &cachedStmt{stmt: qs}
	c.stmts[query] = s
	return s, nil
}

// sqliteRows is what database/sql uses of modernc.org/sqlite's rows.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// sqliteRowsOf returns what a query of the sqlite driver returned as
// sqliteRows.
func sqliteRowsOf(rows driver.Rows, err error) (sqliteRows, error) {
	if err != nil {
		return nil, err
	}
	r, ok := rows.(sqliteRows)
	if !ok {
		_ = rows.Close()
		return nil, errors.New("the sqlite driver returned rows of an unexpected type")
	}
	return r, nil
}

// cachedRows are rows of a cached statement (nil: of one prepared for
// them alone), which they free when closed.
type cachedRows struct {
	sqliteRows
	stmt *cachedStmt
	vals []driver.Value  // the current row, for readRows
	buf  [8]driver.Value // vals when there are few columns
}

// Close resets the statement (which ends its read) for the next query.
func (r *cachedRows) Close() error {
	if r.stmt != nil {
		r.stmt.busy = false
	}
	return r.sqliteRows.Close()
}

func (r *cachedRows) names() ([]string, error) {
	names := r.Columns()
	if r.vals = r.buf[:]; len(names) > len(r.buf) {
		r.vals = make([]driver.Value, len(names))
	}
	r.vals = r.vals[:len(names)]
	return names, nil
}

func (r *cachedRows) dbType(i int) string { return r.ColumnTypeDatabaseTypeName(i) }

func (r *cachedRows) next() (bool, error) {
	err := r.Next(r.vals)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	return err == nil, err
}

func (r *cachedRows) value(i int) any { return r.vals[i] }

// IsValid keeps out of the pool a connection that a statement left inside
// a transaction (BEGIN), where the next call would read an old snapshot
// and hold a lock that keeps writers waiting.
func (c *readOnlyConn) IsValid() bool {
	return c.sqliteConn.IsValid() && sqlite3.Xsqlite3_get_autocommit(c.tls, c.db) != 0
}

// Close finalizes the cached statements, then closes the connection.
func (c *readOnlyConn) Close() error {
	var errs []error
	for _, s := range c.stmts {
		errs = append(errs, s.stmt.Close())
	}
	c.stmts = nil
	errs = append(errs, c.sqliteConn.Close())
	c.tls.Close()
	return errors.Join(errs...)
}

var (
	_ driver.Connector = readOnlySQLite{}
	_ sqliteConn       = (*readOnlyConn)(nil)
	_ sqliteRows       = (*cachedRows)(nil)
)
