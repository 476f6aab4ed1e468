package runtime

import (
	"context"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logLevels remembers the level each session asked for with
// logging/setLevel, which the SDK keeps to itself, so that handlers can
// skip building log messages the client will not receive.
type logLevels struct {
	m   sync.Map // *mcp.ServerSession → mcp.LoggingLevel
	ids sync.Map // session ID → struct{}, for the sessions in m that have one
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
			if _, known := l.m.Swap(ss, p.Level); !known {
				id := ss.ID()
				if id != "" {
					l.ids.Store(id, struct{}{})
				}
				go func() { ss.Wait(); l.m.Delete(ss); l.ids.Delete(id) }()
			}
		}
		return res, err
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
	return ok
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
		if v, ok := l.m.Load(req.Session); ok {
			want = string(v.(mcp.LoggingLevel))
		}
	}
	min, ok := slogLevels[mcp.LoggingLevel(want)]
	return ok && level >= min
}
