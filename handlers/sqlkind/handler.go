package sqlkind

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// handler runs one tool's statements.
type handler struct {
	db       Database
	dialect  *dialect
	steps    []*step
	stmts    []*preparedStmt // one per step, prepared on first use
	params   []param         // by name
	readOnly bool
	maxRows  int
	timeout  time.Duration
	format   string
	oneRow   bool
	jsonCols []string
	identity *identity // the session set from the caller; nil for none
	// server is what the backend learned about its server, shared by its
	// handlers.
	server *serverState
	// notices routes the backend's notices to the calls (postgres; nil
	// elsewhere).
	notices *noticeRouter
	// page pages the query's rows (nil for a tool that is not paged).
	page *pager
}

// step is one statement of a handler.
type step struct {
	field string // for messages: query, exec, statements[1].query
	st    *statement
	exec  bool
	binds []int                     // the index in handler.params of each value st binds
	cols  atomic.Pointer[columnSet] // of the last result
}

// param is a named value bound to the statements.
type param struct {
	name  string
	value *eval.Value
}

// preparedStmt is a statement prepared on the pool, reused by every call;
// database/sql re-prepares it on each connection once.
type preparedStmt struct {
	mu   sync.Mutex
	stmt *sql.Stmt
}

func (p *preparedStmt) get(ctx context.Context, db *sql.DB, text string) (*sql.Stmt, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stmt == nil {
		s, err := db.PrepareContext(ctx, text)
		if err != nil {
			return nil, err
		}
		p.stmt = s
	}
	return p.stmt, nil
}

// errNoRow is returned by one_row handlers when the query finds nothing; it
// is a "not found" for resources.
var errNoRow = fmt.Errorf("no row found: %w", fs.ErrNotExist)

// Call binds the parameters and runs the statements in one transaction.
func (h *handler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	results, pc, err := h.execute(ctx, c)
	if err != nil {
		return nil, err
	}
	if pc == nil {
		return h.result(results)
	}
	next, err := h.finishPage(pc, results[0])
	if err != nil {
		return nil, err
	}
	res, err := h.result(results)
	if err != nil {
		return nil, err
	}
	return pageResult(res, next), nil
}

// execute binds the call's parameters and runs the statements within the
// handler's timeout; a failure is explained for the model.
func (h *handler) execute(ctx context.Context, c *handlers.Call) ([]*stepResult, *pageCall, error) {
	vars := c.Vars()
	args, err := h.bind(vars)
	if err != nil {
		return nil, nil, err
	}
	run, pc := h, (*pageCall)(nil)
	if h.page != nil {
		if pc, run, err = h.startPage(c.Args, args); err != nil {
			return nil, nil, err
		}
	}
	who, err := h.identity.eval(vars, h.dialect)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	ctx, op := observe.Backend(ctx, observe.KindSQL)
	results, err := run.run(ctx, c.Notify, args, who)
	if err != nil {
		err = h.explain(ctx, err)
	}
	op.EndSQL(dbSystem[h.dialect.name], sqlOutcome(ctx, err), err)
	return results, pc, err
}

// dbSystem names the dialects as OpenTelemetry's db.system.name does.
var dbSystem = map[string]string{"postgres": "postgresql", "mysql": "mysql", "sqlite": "sqlite"}

// sqlOutcome sums up a database request for metrics: ok, timeout,
// unavailable or error.
func sqlOutcome(ctx context.Context, err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || serverTimedOut(err):
		return "timeout"
	case unreachable(err):
		return "unavailable"
	}
	return "error"
}

// explain turns a failure into the message the model reads.
func (h *handler) explain(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || serverTimedOut(err):
		return fmt.Errorf("the query timed out after %v: %w", h.timeout, err)
	case unreachable(err):
		return fmt.Errorf("the database is unavailable (down or unreachable; try again later): %w", err)
	case notAuthorized(err):
		return fmt.Errorf("the tool is read-only and the statement does more than read: %w", err)
	}
	return err
}

// notAuthorized reports whether SQLite refused to prepare a statement
// because the authorizer of a read-only connection denied it.
func notAuthorized(err error) bool {
	var sqliteErr *sqlite.Error
	return errors.As(err, &sqliteErr) && sqliteErr.Code()&0xff == sqlite3.SQLITE_AUTH
}

// serverTimedOut reports whether the server stopped a statement at the
// timeout it was given, which can happen just before the context's own.
func serverTimedOut(err error) bool {
	var myErr *mysql.MySQLError
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &myErr):
		return myErr.Number == 1969 || myErr.Number == 3024 // MariaDB, MySQL
	case errors.As(err, &pgErr):
		return pgErr.Code == "57014" && strings.Contains(pgErr.Message, "statement timeout")
	}
	return false
}

// unreachable reports whether err says the database could not be reached,
// as opposed to a statement that failed.
func unreachable(err error) bool {
	var netErr *net.OpError
	var pgErr *pgconn.ConnectError
	return errors.As(err, &netErr) || errors.As(err, &pgErr) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn)
}

// bind evaluates every parameter with a call's names (handlers.Call.Vars),
// in the order of handler.params.
func (h *handler) bind(vars map[string]any) ([]any, error) {
	out := make([]any, len(h.params))
	for i, p := range h.params {
		if p.value == nil {
			continue // the pager's, set by startPage
		}
		x, err := p.value.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.name, err)
		}
		if out[i], err = h.dialect.bindValue(x); err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p.name, err)
		}
	}
	return out, nil
}

// run executes the steps on one connection, in one transaction; what the
// database says meanwhile (notices, and what each statement did) goes to n.
func (h *handler) run(ctx context.Context, n handlers.Notifier, args []any, who *callIdentity) ([]*stepResult, error) {
	pool, enforced, err := h.db.Pool(ctx, h.readOnly)
	if err != nil {
		return nil, err
	}
	if enforced && h.dialect.readsAlone && who == nil && len(h.steps) == 1 && !h.steps[0].exec {
		return h.runAlone(ctx, n, pool, args)
	}
	// Prepare before taking the call's connection: the pool may have only
	// one (an in-memory SQLite database).
	prepared := make([]*sql.Stmt, len(h.steps))
	for i, st := range h.steps {
		if prepared[i], err = h.stmts[i].get(ctx, pool, st.st.text); err != nil {
			return nil, h.stepErr(i, "preparing", err)
		}
	}
	conn, err := pool.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to the database: %w", err)
	}
	defer conn.Close()
	defer h.notices.attach(ctx, conn, n)() // detached before conn is released
	s := &session{pool: pool, conn: conn, readOnly: h.readOnly, enforced: enforced, timeout: h.timeout, server: h.server, who: who}
	defer h.dialect.end(s)
	opCtx, stop := h.watch(ctx, s)
	tx, err := h.dialect.begin(opCtx, s)
	if err != nil {
		stop()
		return nil, fmt.Errorf("cannot start a transaction: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	defer stop() // first: the rollback is never interrupted
	results := make([]*stepResult, len(h.steps))
	for i, st := range h.steps {
		stmt := tx.StmtContext(opCtx, prepared[i])
		start := time.Now()
		results[i], err = h.step(opCtx, stmt, i, st, args)
		_ = stmt.Close()
		if err != nil {
			h.canceled(ctx, s)
			return nil, err
		}
		h.logStep(ctx, n, i, results[i], time.Since(start))
	}
	stop() // the transaction ends uninterrupted
	if h.readOnly {
		return results, nil
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("commit failed: %w", err)
	}
	return results, nil
}

// runAlone runs the one query of a read-only tool in autocommit, on a
// connection of the read-only pool that refuses writes by itself
// (dialect.readsAlone, only SQLite's: see readOnlySQLite): a single
// statement reads one snapshot, and there is no transaction to begin and
// roll back. It reads from the driver's connection directly, which spares
// what database/sql adds per query and per value.
func (h *handler) runAlone(ctx context.Context, n handlers.Notifier, pool *sql.DB, args []any) ([]*stepResult, error) {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to the database: %w", err)
	}
	defer conn.Close()
	start := time.Now()
	a := aloneQuery{h: h, ctx: ctx, args: args}
	if err := conn.Raw(a.run); err != nil {
		return nil, err
	}
	h.logStep(ctx, n, 0, a.results[0], time.Since(start))
	return a.results[:], nil
}

// aloneQuery is the query of runAlone, run on the driver's connection.
type aloneQuery struct {
	h       *handler
	ctx     context.Context
	args    []any
	results [1]*stepResult
}

func (a *aloneQuery) run(dc any) error {
	c, ok := dc.(*readOnlyConn)
	if !ok {
		return errors.New("the read-only pool returned a connection that is not read-only")
	}
	h, st := a.h, a.h.steps[0]
	bound, err := driverArgs(st, a.args)
	if err != nil {
		return h.stepErr(0, "running", err)
	}
	w := newWatchdog(a.ctx, c.db)
	defer w.stop()
	// The watchdog alone stops the statement; the driver is given nothing
	// to watch (it would start a goroutine per query) and reads no values.
	rows, err := c.query(context.Background(), st.st.text, bound)
	if err != nil {
		return h.stepErr(0, "running", err)
	}
	defer rows.Close()
	if a.results[0], err = h.readRows(rows, &st.cols); err != nil {
		return h.stepErr(0, "reading the rows of", err)
	}
	return nil
}

// driverArgs converts the values of a statement's placeholders, in order,
// as database/sql does for a driver that converts nothing itself.
func driverArgs(s *step, args []any) ([]driver.NamedValue, error) {
	bound := make([]driver.NamedValue, len(s.binds))
	for j, k := range s.binds {
		v, err := driver.DefaultParameterConverter.ConvertValue(args[k])
		if err != nil {
			return nil, fmt.Errorf("converting argument $%d type: %w", j+1, err)
		}
		bound[j] = driver.NamedValue{Ordinal: j + 1, Value: v}
	}
	return bound, nil
}

// watch hands the cancellation of the statements on s to the dialect's
// watchdog, if it has one: they then run under the returned context, which
// is never canceled, until stop is called.
func (h *handler) watch(ctx context.Context, s *session) (opCtx context.Context, stop func()) {
	if h.dialect.watch == nil {
		return ctx, func() {}
	}
	return context.WithoutCancel(ctx), h.dialect.watch(ctx, s)
}

// canceled stops on the server the statement of a call that failed because
// it was canceled, where the driver does not.
func (h *handler) canceled(ctx context.Context, s *session) {
	if ctx.Err() != nil && h.dialect.cancel != nil {
		h.dialect.cancel(s)
	}
}

// step runs statement i with stmt, prepared on the pool or the call's
// transaction.
func (h *handler) step(ctx context.Context, stmt *sql.Stmt, i int, s *step, args []any) (*stepResult, error) {
	bound := h.bound(s, args)
	if s.exec {
		res, err := stmt.ExecContext(ctx, bound...)
		if err != nil {
			return nil, h.stepErr(i, "running", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return nil, h.stepErr(i, "running", err)
		}
		return &stepResult{exec: true, affected: n}, nil
	}
	rows, err := stmt.QueryContext(ctx, bound...)
	return h.readStep(i, rows, err)
}

// bound lists the values of a statement's placeholders, in order, from
// the call's parameters.
func (h *handler) bound(s *step, args []any) []any {
	bound := make([]any, len(s.binds))
	for j, k := range s.binds {
		bound[j] = args[k]
	}
	return bound
}

// readStep reads the rows of statement i, whose query returned err.
func (h *handler) readStep(i int, rows *sql.Rows, err error) (*stepResult, error) {
	if err != nil {
		return nil, h.stepErr(i, "running", err)
	}
	defer rows.Close()
	r, err := h.readRows(&sqlRows{rows: rows}, &h.steps[i].cols)
	if err != nil {
		return nil, h.stepErr(i, "reading the rows of", err)
	}
	return r, nil
}

// stepErr names the failing statement when there are several.
func (h *handler) stepErr(i int, doing string, err error) error {
	if len(h.steps) == 1 {
		return fmt.Errorf("%s the statement: %w", doing, err)
	}
	return fmt.Errorf("%s statement %d: %w", doing, i+1, err)
}

// Close releases the prepared statements, and those of the pages after
// the first.
func (h *handler) Close() error {
	err := closeStmts(h.stmts)
	if h.page != nil && h.page.next != nil && h.page.next != h {
		err = errors.Join(err, closeStmts(h.page.next.stmts))
	}
	return err
}

func closeStmts(stmts []*preparedStmt) error {
	var errs []error
	for _, p := range stmts {
		p.mu.Lock()
		if p.stmt != nil {
			errs = append(errs, p.stmt.Close())
			p.stmt = nil
		}
		p.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Hints announces read-only tools as such, and tools that write as
// destructive.
func (h *handler) Hints() handlers.Hints {
	if h.readOnly {
		return handlers.Hints{ReadOnly: ptr(true)}
	}
	return handlers.Hints{ReadOnly: ptr(false), Destructive: ptr(true)}
}

func ptr[T any](v T) *T { return &v }

var (
	_ handlers.Handler = (*handler)(nil)
	_ handlers.Hinter  = (*handler)(nil)
	_ io.Closer        = (*handler)(nil)
)
