package sqlkind

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/expr-lang/expr/types"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
	"modernc.org/sqlite"
)

// defaultMaxOpen is the pool size when a backend does not set max_open.
const defaultMaxOpen = 10

// BackendConfig is a named database connection, shared by the tools and
// resources that say `backend: NAME`.
type BackendConfig struct {
	// Driver is the database: sqlite (pure Go, no cgo), postgres
	// (PostgreSQL, through pgx) or mysql (MySQL and MariaDB).
	Driver string `yaml:"driver" jsonschema:"required,enum=sqlite,enum=postgres,enum=mysql"`
	// DSN says where the database is. For sqlite a file path relative to
	// this config file (or file:PATH?options, or :memory:); for postgres a
	// URL such as postgres://user@host:5432/db?sslmode=disable; for mysql
	// user:password@tcp(host:3306)/db. Take it from the environment, e.g.
	// `dsn: ${SHOP_DSN}`, to keep passwords out of the file.
	DSN string `yaml:"dsn" jsonschema:"required"`
	// MaxOpen is the most connections open at once. Defaults to 10; an
	// in-memory SQLite database always uses exactly one. Read-only tools
	// use connections of their own, with the same limits.
	MaxOpen int `yaml:"max_open,omitempty"`
	// MaxIdle is the most idle connections kept for reuse. Defaults to
	// max_open: a connection closed after each call is opened again, and its
	// statements prepared again, on the next one.
	MaxIdle int `yaml:"max_idle,omitempty"`
	// ConnMaxLifetime closes connections older than this, e.g. 30m.
	// Defaults to keeping them.
	ConnMaxLifetime spec.Duration `yaml:"conn_max_lifetime,omitempty"`
	// Init is an SQL file, relative to this config file, that creates a
	// SQLite database (tables and seed rows). It runs on first use when the
	// database has no tables yet (a new file, or :memory:), in one
	// transaction: when it fails nothing is left behind and the next use
	// tries again. SQLite only.
	Init string `yaml:"init,omitempty"`
	// MaxRows is the max_rows of every tool of this backend that sets none.
	MaxRows int `yaml:"max_rows,omitempty"`
	// Timeout is the timeout of every tool of this backend that sets none.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
	// Format is the text format of every tool of this backend that sets
	// none: table, csv or json.
	Format string `yaml:"format,omitempty" jsonschema:"enum=table,enum=csv,enum=json"`
	// Session makes the database see the caller of every call of this
	// backend's tools: a role to assume (PostgreSQL) and settings to set
	// (PostgreSQL custom settings, MySQL/MariaDB user variables), from
	// `auth`, type-checked when the config loads. It is set inside the
	// call's transaction on PostgreSQL (gone at its end) and reset after
	// the call on MySQL and MariaDB. Not for SQLite, which has neither:
	// bind the caller into the query there. Its tools refuse calls
	// without an authenticated caller; a tool's own `session` replaces it.
	Session *Session `yaml:"session,omitempty"`
}

// Database is what sql tools need from a backend: a pool and the driver
// it speaks to. *DB implements it.
type Database interface {
	// Pool returns a connection pool, creating the database first when the
	// backend has an init script and the database has no tables yet. When
	// readOnly is asked and the backend has a pool whose connections refuse
	// every write (see readOnlyPool), it returns that pool and enforced is
	// true; otherwise the caller enforces read-only mode itself.
	Pool(ctx context.Context, readOnly bool) (pool *sql.DB, enforced bool, err error)
	// Driver is sqlite, postgres or mysql.
	Driver() string
}

// DB is an opened sql backend. It does not connect when opened: a database
// that is down makes its tools fail with an error until it is back.
type DB struct {
	dialect *dialect
	db      *sql.DB
	ro      *sql.DB       // connections that refuse writes; nil for :memory:
	init    *initScript   // nil when there is nothing to create
	server  serverState   // what handlers learn about the server
	notices *noticeRouter // postgres only: notices go to the calls
	tools   toolDefaults  // what its tools inherit
	// identity is the session its tools set from their caller; nil for none.
	identity *identity
}

// toolDefaults are a backend's settings for the tools that set none.
type toolDefaults struct {
	maxRows int
	timeout time.Duration
	format  string
}

// Open checks the configuration and prepares the pool without connecting.
func (c *BackendConfig) Open(env handlers.BuildEnv) any {
	d := dialectOf(c.Driver)
	if d == nil {
		return nil // the loader checked the driver against its enumeration
	}
	if c.Init != "" && d != sqliteDialect {
		env.Diag("init", "init is for sqlite databases; create other databases with their own tools")
		return nil
	}
	for field, n := range map[string]int{"max_open": c.MaxOpen, "max_idle": c.MaxIdle, "max_rows": c.MaxRows} {
		if n < 0 {
			env.Diag(field, "must not be negative")
		}
	}
	var notices *noticeRouter
	if d == postgresDialect {
		notices = newNoticeRouter(env.Logger())
	}
	db, ro, err := c.openPools(env, d, notices)
	if err != nil {
		env.Diag("dsn", env.Redact(err.Error()))
		return nil
	}
	id, ok := c.session(env, d)
	if !ok {
		_ = db.Close()
		if ro != nil {
			_ = ro.Close()
		}
		return nil
	}
	return &DB{dialect: d, db: db, ro: ro, init: c.initScript(env, d), notices: notices, identity: id,
		tools: toolDefaults{maxRows: c.MaxRows, timeout: time.Duration(c.Timeout), format: c.Format}}
}

// session compiles the backend's session over the caller (`auth`).
func (c *BackendConfig) session(env handlers.BuildEnv, d *dialect) (*identity, bool) {
	if c.Session == nil {
		return nil, true
	}
	ce, ok := env.(handlers.CallerEnv)
	if !ok {
		env.Diag("session", "this server cannot say who calls")
		return nil, false
	}
	id := compileSession(env, "session", c.Session, d, types.Map{"auth": ce.AuthType()})
	if id == nil {
		return nil, false
	}
	if id.usesCaller && !ce.ActForCaller("session", "the session is set from the caller") {
		return nil, false
	}
	return id, true
}

// openPools opens the pool, and a second one whose connections refuse
// writes for read-only tools (none for an in-memory SQLite database, whose
// one connection is switched per call).
func (c *BackendConfig) openPools(env handlers.BuildEnv, d *dialect, notices *noticeRouter) (*sql.DB, *sql.DB, error) {
	dsn, memory := c.DSN, false
	if d == sqliteDialect {
		dsn, memory = sqliteDSN(env, c.DSN)
	}
	db, err := c.openPool(d, dsn, notices, false)
	if err != nil || memory {
		return db, nil, err
	}
	ro, err := c.openPool(d, dsn, notices, true)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return db, ro, nil
}

// openPool makes the driver's pool with the configured limits; a postgres
// pool's notices go to notices. A readOnly pool's connections refuse
// writes (see readOnlyPool).
func (c *BackendConfig) openPool(d *dialect, dsn string, notices *noticeRouter, readOnly bool) (*sql.DB, error) {
	var db *sql.DB
	maxOpen := c.MaxOpen
	switch d {
	case sqliteDialect:
		if _, memory := sqliteDSN(nil, dsn); memory {
			maxOpen = 1 // every connection to :memory: is a database of its own
		}
		if readOnly {
			dsn += "&_pragma=query_only(1)"
		}
		conn, err := sqlite.NewConnector(dsn)
		if err != nil {
			return nil, err
		}
		if readOnly {
			conn = readOnlySQLite{conn}
		}
		db = sql.OpenDB(conn)
	case postgresDialect:
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("invalid postgres DSN: %w", err)
		}
		if notices != nil {
			cfg.OnNotice = notices.onNotice
		}
		if readOnly {
			cfg.RuntimeParams["default_transaction_read_only"] = "on"
		}
		cfg.BuildContextWatcherHandler = cancelOnServer
		db = stdlib.OpenDB(*cfg)
	case mysqlDialect:
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return nil, fmt.Errorf("invalid mysql DSN: %w", err)
		}
		cfg.ParseTime = true // DATETIME and TIMESTAMP columns come back as times
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return nil, fmt.Errorf("invalid mysql DSN: %w", err)
		}
		if readOnly {
			conn = readOnlyConnector{conn}
		}
		db = sql.OpenDB(conn)
	}
	maxOpen = cmp.Or(maxOpen, defaultMaxOpen)
	db.SetMaxOpenConns(maxOpen)
	db.SetMaxIdleConns(min(cmp.Or(c.MaxIdle, maxOpen), maxOpen))
	db.SetConnMaxLifetime(time.Duration(c.ConnMaxLifetime))
	return db, nil
}

// Pool returns a pool, running the init script first if it is due.
func (d *DB) Pool(ctx context.Context, readOnly bool) (*sql.DB, bool, error) {
	if d.init != nil {
		if err := d.init.run(ctx, d.db); err != nil {
			return nil, false, err
		}
	}
	if readOnly && d.ro != nil {
		return d.ro, true, nil
	}
	return d.db, false, nil
}

// Driver is sqlite, postgres or mysql.
func (d *DB) Driver() string { return d.dialect.name }

// Ping checks that the database answers (creating it first if it has an
// init script and does not exist yet).
func (d *DB) Ping(ctx context.Context) error {
	db, _, err := d.Pool(ctx, false)
	if err != nil {
		return err
	}
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("database unreachable: %w", err)
	}
	return nil
}

// Close closes the pools.
func (d *DB) Close() error {
	d.server.kills.Wait() // at most their 5 s timeout
	err := d.db.Close()
	if d.ro != nil {
		err = errors.Join(err, d.ro.Close())
	}
	return err
}

// initScript creates a SQLite database on first use.
type initScript struct {
	sql  string // the script
	mu   sync.Mutex
	done atomic.Bool
}

// run executes the script once, when the database has no tables yet.
func (s *initScript) run(ctx context.Context, db *sql.DB) error {
	if s.done.Load() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done.Load() {
		return nil
	}
	if err := execScript(ctx, db, s.sql); err != nil {
		return fmt.Errorf("creating the database from its init script: %w", err)
	}
	s.done.Store(true)
	return nil
}

// execScript runs a script of several statements in one transaction, if
// the database has no tables yet.
func execScript(ctx context.Context, db *sql.DB, script string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	var tables int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
		return err
	}
	if tables > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, script); err != nil {
		return err
	}
	return tx.Commit()
}

var (
	_ handlers.BackendConfig = (*BackendConfig)(nil)
	_ Database               = (*DB)(nil)
	_ handlers.Pinger        = (*DB)(nil)
	_ io.Closer              = (*DB)(nil)
)

// cancelOnServer makes a canceled call stop its statement on the server.
// pgx's default only breaks the connection, and PostgreSQL does not notice
// a closed connection while a statement runs: pg_sleep(300) would go on for
// five minutes after its client died.
func cancelOnServer(pc *pgconn.PgConn) ctxwatch.Handler {
	return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: time.Second}
}
