package httpkind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// The client learns what a call does through log notifications: a debug
// line per request, a warning per retry, an info line per page followed.
// They name the method and the path, never the query (it may hold an API
// key), headers or bodies, and secrets in the path or in an error are
// masked.

// logSent reports one request: its status, or why no response came, and
// how long it took.
func (h *handler) logSent(ctx context.Context, n handlers.Notifier, out *outgoing, resp *response, err error, took time.Duration) {
	if !handlers.LogEnabled(ctx, n, slog.LevelDebug) {
		return // the usual case, on every call: build nothing
	}
	path := h.logPath(out.url)
	data := map[string]any{"method": out.method, "path": path, "duration_ms": millis(took)}
	var msg string
	if err != nil {
		reason := h.scrub(shortError(err))
		data["error"] = reason
		msg = fmt.Sprintf("%s %s → %s after %s", out.method, path, reason, roundDuration(took))
	} else {
		data["status"] = resp.status
		msg = fmt.Sprintf("%s %s → %d in %s", out.method, path, resp.status, roundDuration(took))
	}
	n.Log(ctx, slog.LevelDebug, msg, data)
}

// logRetry reports that a failed attempt is repeated after wait; attempt
// is the number of the next one.
func (h *handler) logRetry(ctx context.Context, n handlers.Notifier, out *outgoing, resp *response, err error, attempt int, wait time.Duration) {
	path := h.logPath(out.url)
	attempts := h.lim.retries + 1
	data := map[string]any{"method": out.method, "path": path, "attempt": attempt, "max_attempts": attempts,
		"wait_ms": millis(wait)}
	var reason string
	if err != nil {
		reason = h.scrub(shortError(err))
		data["error"] = reason
	} else {
		reason = statusLine(resp.status)
		data["status"] = resp.status
	}
	n.Log(ctx, slog.LevelWarn, fmt.Sprintf("%s %s: %s, retrying in %s (attempt %d of %d)",
		out.method, path, reason, roundDuration(wait), attempt, attempts), data)
}

// logPage reports a page fetched while following pagination.
func (h *handler) logPage(ctx context.Context, n handlers.Notifier, out *outgoing, page, items, total int) {
	path := h.logPath(out.url)
	noun := "items"
	if items == 1 {
		noun = "item"
	}
	n.Log(ctx, slog.LevelInfo, fmt.Sprintf("%s %s: page %d, %d %s (%d so far)", out.method, path, page, items, noun, total),
		map[string]any{"method": out.method, "path": path, "page": page, "items": items, "total_items": total})
}

// logPath is the path of u for a log, secrets masked. A secret found in
// the decoded path is masked there, since its escaped form may not match.
func (h *handler) logPath(u *url.URL) string {
	if p := h.scrub(u.Path); p != u.Path {
		return p
	}
	return h.scrub(u.EscapedPath())
}

// statusLine is "503 Service Unavailable", or the bare code when it has
// no standard text.
func statusLine(code int) string {
	if text := http.StatusText(code); text != "" {
		return fmt.Sprintf("%d %s", code, text)
	}
	return fmt.Sprint(code)
}

// shortError names a connection failure in a few words: "connection
// refused", "connection closed", "timeout", else the innermost message
// that still says something.
func shortError(err error) string {
	var errno syscall.Errno
	var ne net.Error
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.As(err, &errno):
		return errno.Error()
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	}
	for {
		inner := errors.Unwrap(err)
		if inner == nil {
			return err.Error()
		}
		err = inner
	}
}

// roundDuration drops digits nobody reads: 250ms, 1.5s, 734µs.
func roundDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}
