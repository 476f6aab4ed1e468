// Package loglevel remembers the log level each session asked for with
// logging/setLevel, which the SDK keeps to itself, so that handlers can
// skip building log messages the client will not receive.
package loglevel

import (
	"context"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Sessions holds the levels sessions asked for. Its zero value is ready;
// its methods are safe for concurrent use.
type Sessions struct {
	m sync.Map // *mcp.ServerSession → mcp.LoggingLevel
	// adopted holds the levels of sessions taken over from another
	// replica (shared state), by ID, until first asked for here.
	adopted sync.Map
}

// Middleware records the level of every successful logging/setLevel, and
// forgets a session when it ends.
func (l *Sessions) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "logging/setLevel" || err != nil {
			return res, err
		}
		p, ok1 := req.GetParams().(*mcp.SetLoggingLevelParams)
		ss, ok2 := req.GetSession().(*mcp.ServerSession)
		if ok1 && ok2 {
			l.set(ss, p.Level)
		}
		return res, err
	}
}

// level returns the level session ss asked for, here or, for a session
// taken over from another replica, there.
func (l *Sessions) level(ss *mcp.ServerSession) mcp.LoggingLevel {
	if v, ok := l.m.Load(ss); ok {
		return v.(mcp.LoggingLevel)
	}
	if ss == nil || ss.ID() == "" {
		return ""
	}
	if v, ok := l.adopted.LoadAndDelete(ss.ID()); ok {
		l.set(ss, v.(mcp.LoggingLevel))
		return v.(mcp.LoggingLevel)
	}
	return ""
}

// set records the level of session ss.
func (l *Sessions) set(ss *mcp.ServerSession, level mcp.LoggingLevel) {
	if _, known := l.m.Swap(ss, level); !known {
		go func() { ss.Wait(); l.m.Delete(ss) }()
	}
}

var slogLevels = map[mcp.LoggingLevel]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "notice": slog.LevelInfo + 2,
	"warning": slog.LevelWarn, "error": slog.LevelError, "critical": slog.LevelError + 4,
	"alert": slog.LevelError + 8, "emergency": slog.LevelError + 12,
}

// Enabled reports whether the client of req wants logs at level: the level
// its request carries (protocol 2026-07-28), or else the one its session
// set. A client that asked for no level gets no logs.
func (l *Sessions) Enabled(req *mcp.CallToolRequest, level slog.Level) bool {
	want, _ := req.Params.GetMeta()[mcp.MetaKeyLogLevel].(string)
	if want == "" {
		want = string(l.level(req.Session))
	}
	min, ok := slogLevels[mcp.LoggingLevel(want)]
	return ok && level >= min
}

// Adopt records the level a session taken over from another replica (its
// ID) asked for there, until it is first asked for here.
func (l *Sessions) Adopt(id string, level mcp.LoggingLevel) {
	if level != "" {
		l.adopted.Store(id, level)
	}
}

// Slog returns the slog level of an MCP logging level.
func Slog(level mcp.LoggingLevel) (slog.Level, bool) {
	l, ok := slogLevels[level]
	return l, ok
}
