package sqlkind

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteDSN resolves a SQLite DSN written in the config: a plain path or a
// file: URI, relative to the config file (env nil: as it is), or :memory:.
// A busy timeout is added unless the DSN sets one, so that concurrent
// writers wait for each other instead of failing at once.
func sqliteDSN(env handlers.BuildEnv, dsn string) (string, bool) {
	if strings.Contains(dsn, ":memory:") || strings.Contains(dsn, "mode=memory") {
		return dsn, true
	}
	path, query, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if env != nil {
		path = env.Path(path)
		checkDatabaseFile(env, path)
	}
	if !strings.Contains(query, "busy_timeout") {
		query = strings.TrimPrefix(query+"&_pragma=busy_timeout(5000)", "&")
	}
	return "file:" + path + "?" + query, false
}

// checkDatabaseFile reports a database path that names something other
// than a regular file: SQLite reading a named pipe or a device would block
// or never end. A file that does not exist yet is created on first use.
func checkDatabaseFile(env handlers.BuildEnv, path string) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		env.Diag("dsn", fmt.Sprintf("%s is not a regular file", path))
	}
}

// initScript reads the backend's init script, if it has one.
func (c *BackendConfig) initScript(env handlers.BuildEnv, d *dialect) *initScript {
	if c.Init == "" || d != sqliteDialect {
		return nil
	}
	body, err := regfile.Read(env.Path(c.Init), 0)
	if err != nil {
		env.Diag("init", fmt.Sprintf("cannot read the init script: %s", regfile.Message(err)))
		return nil
	}
	if strings.TrimSpace(string(body)) == "" {
		env.Diag("init", fmt.Sprintf("the init script %s is empty", filepath.Base(c.Init)))
		return nil
	}
	return &initScript{sql: string(body)}
}

// watchSQLite interrupts the statement running on s.conn when ctx is done,
// and again every interruptEvery until stop is called: SQLite ignores an
// interrupt that arrives just before a statement starts, and the driver
// interrupts only once, so a canceled query could otherwise run forever.
// The statements of the call run under a context without cancellation;
// this watchdog alone stops them. Once stop has returned it never touches
// the connection again, which may then go back to the pool.
//
// It costs no goroutine until ctx is done (context.AfterFunc), which in
// most calls it never is.
func watchSQLite(ctx context.Context, s *session) (stop func()) {
	w := newWatchdog(ctx, sqliteHandle(s.conn))
	if w == nil {
		return func() {}
	}
	return w.stop
}

// newWatchdog watches ctx for the connection db (a sqlite3*); nil when db
// is 0, which stop accepts.
func newWatchdog(ctx context.Context, db uintptr) *watchdog {
	if db == 0 {
		return nil
	}
	w := &watchdog{db: db}
	w.unwatch = context.AfterFunc(ctx, w.interrupt)
	return w
}

// watchdog interrupts the statements of one call after it was canceled.
type watchdog struct {
	db      uintptr // the connection's sqlite3*
	unwatch func() bool
	mu      sync.Mutex
	stopped bool
}

// interrupt interrupts the connection every interruptEvery until stop.
func (w *watchdog) interrupt() {
	tls := libc.NewTLS()
	defer tls.Close()
	for {
		w.mu.Lock()
		if w.stopped {
			w.mu.Unlock()
			return
		}
		sqlite3.Xsqlite3_interrupt(tls, w.db)
		w.mu.Unlock()
		time.Sleep(interruptEvery)
	}
}

// stop ends the watch; no interrupt happens after it returns.
func (w *watchdog) stop() {
	if w == nil || w.unwatch() {
		return // ctx was not done: interrupt never ran and never will
	}
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
}

// interruptEvery is how often a canceled statement is interrupted again.
const interruptEvery = 50 * time.Millisecond

// sqliteHandle returns the sqlite3* of the driver connection under conn, or
// 0 if the driver is not the one this was written for.
func sqliteHandle(conn *sql.Conn) uintptr {
	var db uintptr
	_ = conn.Raw(func(dc any) error {
		db = driverHandle(dc)
		return nil
	})
	return db
}

// driverHandle returns the sqlite3* of a modernc.org/sqlite connection, or
// 0 if dc is not one.
func driverHandle(dc any) uintptr {
	if c, ok := dc.(*readOnlyConn); ok {
		return c.db
	}
	v := reflect.ValueOf(dc)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return 0
	}
	if f := v.Elem().FieldByName("db"); f.IsValid() && f.Kind() == reflect.Uintptr {
		return uintptr(f.Uint())
	}
	return 0
}
