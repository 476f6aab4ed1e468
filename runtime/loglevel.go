package runtime

import (
	"context"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// logLevels remembers the level each session asked for with
// logging/setLevel, which the SDK keeps to itself, so that handlers can
// skip building log messages the client will not receive.
type logLevels struct {
	m   sync.Map // *mcp.ServerSession → mcp.LoggingLevel
	ids sync.Map // session ID → struct{}, for the sessions in m that have one
	// adopted holds the levels of sessions taken over from another
	// replica (shared state), by ID, until first asked for here.
	adopted sync.Map
}

// middleware records the level of every successful logging/setLevel, and
// forgets a session when it ends.
func (l *logLevels) middleware(next mcp.MethodHandler) mcp.MethodHandler {
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
func (l *logLevels) level(ss *mcp.ServerSession) mcp.LoggingLevel {
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
func (l *logLevels) set(ss *mcp.ServerSession, level mcp.LoggingLevel) {
	if _, known := l.m.Swap(ss, level); !known {
		id := ss.ID()
		if id != "" {
			l.ids.Store(id, struct{}{})
		}
		go func() { ss.Wait(); l.m.Delete(ss); l.ids.Delete(id) }()
	}
}

// AdoptSession tells the server that the session with this ID, opened on
// another replica, is taken over here with the state it had there (the
// log level it asked for).
func (s *Server) AdoptSession(id string, st *mcp.ServerSessionState) {
	if st != nil && st.LogLevel != "" {
		s.logLevels.adopted.Store(id, st.LogLevel)
	}
}

// QuietCall reports whether a call of the named tool, whose request asks
// for no progress and no logs, sends the client nothing while it runs: the
// tool has no steps, and the session with this ID ("" for none) asked for
// no logs. A transport may then answer it without an event stream.
func (s *Server) QuietCall(tool, sessionID string) bool {
	s = s.now()
	t, ok := s.toolIndex[tool]
	return ok && len(t.steps) == 0 && (sessionID == "" || !s.logLevels.setBySession(sessionID))
}

// setBySession reports whether the session with this ID asked for logs.
func (l *logLevels) setBySession(id string) bool {
	_, ok := l.ids.Load(id)
	_, adopted := l.adopted.Load(id)
	return ok || adopted
}

var slogLevels = map[mcp.LoggingLevel]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "notice": slog.LevelInfo + 2,
	"warning": slog.LevelWarn, "error": slog.LevelError, "critical": slog.LevelError + 4,
	"alert": slog.LevelError + 8, "emergency": slog.LevelError + 12,
}

// enabled reports whether the client of req wants logs at level: the level
// its request carries (protocol 2026-07-28), or else the one its session
// set. A client that asked for no level gets no logs.
func (l *logLevels) enabled(req *mcp.CallToolRequest, level slog.Level) bool {
	want, _ := req.Params.GetMeta()[mcp.MetaKeyLogLevel].(string)
	if want == "" {
		want = string(l.level(req.Session))
	}
	min, ok := slogLevels[mcp.LoggingLevel(want)]
	return ok && level >= min
}
