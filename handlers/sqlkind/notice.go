package sqlkind

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/mcpgen/mcpgen/handlers"
)

// noticeRouter sends the notices of a PostgreSQL backend's connections
// (RAISE NOTICE, WARNING…) to the client of the call using the connection
// at the time. A nil router routes nothing.
type noticeRouter struct {
	log   *slog.Logger // for notices that arrive outside any call
	mu    sync.Mutex
	calls map[*pgconn.PgConn]noticeTarget
}

// noticeTarget is the call a connection's notices go to.
type noticeTarget struct {
	ctx context.Context
	n   handlers.Notifier
}

func newNoticeRouter(log *slog.Logger) *noticeRouter {
	return &noticeRouter{log: log, calls: map[*pgconn.PgConn]noticeTarget{}}
}

// attach sends the notices conn receives to n until detach is called, which
// the call does before it releases conn.
func (r *noticeRouter) attach(ctx context.Context, conn *sql.Conn, n handlers.Notifier) (detach func()) {
	if r == nil {
		return func() {}
	}
	var pc *pgconn.PgConn
	_ = conn.Raw(func(dc any) error {
		if c, ok := dc.(*stdlib.Conn); ok {
			pc = c.Conn().PgConn()
		}
		return nil
	})
	if pc == nil {
		return func() {}
	}
	r.mu.Lock()
	r.calls[pc] = noticeTarget{ctx: ctx, n: n}
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.calls, pc)
		r.mu.Unlock()
	}
}

// onNotice is the pgx notice handler of every connection of the backend. It
// runs on the goroutine reading the connection, that is the call's own.
func (r *noticeRouter) onNotice(pc *pgconn.PgConn, notice *pgconn.Notice) {
	r.mu.Lock()
	to, ok := r.calls[pc]
	r.mu.Unlock()
	severity := notice.SeverityUnlocalized
	if severity == "" {
		severity = notice.Severity
	}
	data := map[string]any{"severity": severity, "code": notice.Code, "message": notice.Message}
	if notice.Detail != "" {
		data["detail"] = notice.Detail
	}
	if notice.Hint != "" {
		data["hint"] = notice.Hint
	}
	if !ok {
		r.log.Debug("database notice outside any call", "severity", severity, "code", notice.Code, "message", notice.Message)
		return
	}
	to.n.Log(to.ctx, noticeLevel(severity), notice.Message, data)
}

// noticeLevel maps a PostgreSQL severity to a log level.
func noticeLevel(severity string) slog.Level {
	switch severity {
	case "DEBUG", "DEBUG1", "DEBUG2", "DEBUG3", "DEBUG4", "DEBUG5":
		return slog.LevelDebug
	case "WARNING":
		return slog.LevelWarn
	case "ERROR", "FATAL", "PANIC":
		return slog.LevelError
	}
	return slog.LevelInfo // LOG, INFO, NOTICE
}

// logStep tells the client, at debug level, what statement i did and how
// long it took; never the values bound to it.
func (h *handler) logStep(ctx context.Context, n handlers.Notifier, i int, r *stepResult, took time.Duration) {
	if !handlers.LogEnabled(ctx, n, slog.LevelDebug) {
		return // the usual case: build nothing
	}
	data := map[string]any{"statement": i + 1, "duration_ms": float64(took.Microseconds()) / 1000}
	var msg string
	if r.exec {
		data["rows_affected"] = r.affected
		msg = fmt.Sprintf("statement %d affected %d rows in %v", i+1, r.affected, took.Round(time.Microsecond))
	} else {
		data["rows"] = len(r.rows)
		if r.truncated {
			data["truncated"] = true
		}
		msg = fmt.Sprintf("statement %d returned %d rows in %v", i+1, len(r.rows), took.Round(time.Microsecond))
	}
	n.Log(ctx, slog.LevelDebug, msg, data)
}
