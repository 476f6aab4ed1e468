package sqlkind

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/expr-lang/expr/types"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

// env is a BuildEnv for opening backends outside runtime.
type env struct {
	dir   string
	diags []string
}

func (e *env) Logger() *slog.Logger                                   { return slog.New(slog.DiscardHandler) }
func (e *env) Diag(field, msg string)                                 { e.diags = append(e.diags, field+": "+msg) }
func (e *env) DiagAt(field string, _ int, msg string)                 { e.Diag(field, msg) }
func (e *env) Failed() bool                                           { return len(e.diags) > 0 }
func (e *env) Warn(field, msg string)                                 { e.Diag(field, msg) }
func (e *env) Compile(string, *spec.Value, types.Map) *eval.Value     { return nil }
func (e *env) Template(string, string, ...string) *templates.Template { return nil }
func (e *env) Backend(string) (any, error)                            { return nil, nil }
func (e *env) Path(p string) string                                   { return filepath.Join(e.dir, p) }
func (e *env) Redact(s string) string                                 { return s }

func TestPing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		cfg  BackendConfig
		want string // "" for a database that answers
	}{
		{"sqlite", BackendConfig{Driver: "sqlite", DSN: "ping.db"}, ""},
		{"postgres down", BackendConfig{Driver: "postgres", DSN: "postgres://x@127.0.0.1:1/x?connect_timeout=2"}, "database unreachable"},
		{"mysql down", BackendConfig{Driver: "mysql", DSN: "x@tcp(127.0.0.1:1)/x?timeout=2s"}, "database unreachable"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := &env{dir: t.TempDir()}
			v := tt.cfg.Open(e)
			if len(e.diags) > 0 {
				t.Fatal(e.diags)
			}
			defer v.(io.Closer).Close()
			err := v.(handlers.Pinger).Ping(context.Background())
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("ping: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("ping: got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

var _ handlers.BuildEnv = (*env)(nil)

// backendEnv is an env whose handlers use db.
type backendEnv struct {
	env
	db any
}

func (e *backendEnv) Backend(string) (any, error) { return e.db, nil }

// TestPreparedOnce checks that a tool's statement is prepared once, not on
// every call: on the pool for a tool that runs in a transaction, on the
// connection for a read-only tool in autocommit.
func TestPreparedOnce(t *testing.T) {
	t.Parallel()
	for _, readOnly := range []bool{false, true} {
		t.Run(fmt.Sprintf("read_only %v", readOnly), func(t *testing.T) {
			t.Parallel()
			e := &env{dir: t.TempDir()}
			db := (&BackendConfig{Driver: "sqlite", DSN: "p.db", MaxOpen: 1}).Open(e).(*DB)
			defer db.Close()
			be := &backendEnv{env: *e, db: db}
			h := (&Config{Query: "SELECT 1 AS one", ReadOnly: &readOnly}).Build(be).(*handler)
			defer h.Close()
			var first any
			for i := range 3 {
				if _, err := h.Call(context.Background(), &handlers.Call{Args: map[string]any{}, Notify: handlers.Nop{}}); err != nil {
					t.Fatal(err)
				}
				got := statementRun(t, db, h, readOnly)
				if i == 0 {
					first = got
				}
				if got == nil || got != first {
					t.Fatalf("call %d prepared the statement again", i+1)
				}
			}
		})
	}
}

// statementRun returns the statement h's calls ran: the one prepared on the
// pool, or the one its read-only connection keeps.
func statementRun(t *testing.T, db *DB, h *handler, readOnly bool) any {
	t.Helper()
	if !readOnly {
		return h.stmts[0].stmt
	}
	conn, err := db.ro.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var s *cachedStmt
	_ = conn.Raw(func(dc any) error {
		s = dc.(*readOnlyConn).stmts[h.steps[0].st.text]
		return nil
	})
	if s == nil {
		return nil
	}
	return s
}

func TestServerTimedOut(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("running: %w", &mysql.MySQLError{Number: 1969, Message: "max_statement_time exceeded"}), true},
		{&mysql.MySQLError{Number: 3024}, true},
		{&mysql.MySQLError{Number: 1146, Message: "no such table"}, false},
		{&pgconn.PgError{Code: "57014", Message: "canceling statement due to statement timeout"}, true},
		{&pgconn.PgError{Code: "57014", Message: "canceling statement due to user request"}, false},
		{errors.New("statement timeout"), false},
	} {
		if got := serverTimedOut(tt.err); got != tt.want {
			t.Errorf("serverTimedOut(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

func TestPoolLimits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		cfg      BackendConfig
		wantOpen int
	}{
		{"default", BackendConfig{Driver: "postgres", DSN: "postgres://x@127.0.0.1:1/x"}, defaultMaxOpen},
		{"set", BackendConfig{Driver: "mysql", DSN: "x@tcp(127.0.0.1:1)/x", MaxOpen: 3, MaxIdle: 1}, 3},
		{"memory", BackendConfig{Driver: "sqlite", DSN: ":memory:", MaxOpen: 5}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := tt.cfg.Open(&env{dir: t.TempDir()})
			db := v.(*DB)
			defer db.Close()
			if got := db.db.Stats().MaxOpenConnections; got != tt.wantOpen {
				t.Errorf("max open connections = %d, want %d", got, tt.wantOpen)
			}
		})
	}
}

// TestIdleConnectionsKept checks that the connections a busy moment opened
// stay open for the next calls (max_idle defaults to max_open), rather than
// being closed and opened again.
func TestIdleConnectionsKept(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		maxIdle  int
		wantIdle int
	}{
		{"default", 0, 4},
		{"set", 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := BackendConfig{Driver: "sqlite", DSN: "idle.db", MaxOpen: 4, MaxIdle: tt.maxIdle}
			db := cfg.Open(&env{dir: t.TempDir()}).(*DB)
			defer db.Close()
			ctx := context.Background()
			var conns []*sql.Conn
			for range 4 {
				c, err := db.db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
			}
			for _, c := range conns {
				c.Close()
			}
			if got := db.db.Stats().Idle; got != tt.wantIdle {
				t.Errorf("idle connections after 4 calls at once = %d, want %d", got, tt.wantIdle)
			}
		})
	}
}

func TestNoticeLevel(t *testing.T) {
	t.Parallel()
	for severity, want := range map[string]slog.Level{
		"DEBUG": slog.LevelDebug, "DEBUG1": slog.LevelDebug, "LOG": slog.LevelInfo, "INFO": slog.LevelInfo,
		"NOTICE": slog.LevelInfo, "WARNING": slog.LevelWarn, "ERROR": slog.LevelError, "": slog.LevelInfo,
	} {
		if got := noticeLevel(severity); got != want {
			t.Errorf("noticeLevel(%q) = %v, want %v", severity, got, want)
		}
	}
}

func TestNoticeOutsideCall(t *testing.T) {
	t.Parallel()
	var buf strings.Builder
	r := newNoticeRouter(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	r.onNotice(&pgconn.PgConn{}, &pgconn.Notice{Severity: "NOTICE", Code: "00000", Message: "stray"})
	if !strings.Contains(buf.String(), "msg=\"database notice outside any call\"") || !strings.Contains(buf.String(), "message=stray") {
		t.Errorf("operator log = %q, want the stray notice at debug", buf.String())
	}
}
