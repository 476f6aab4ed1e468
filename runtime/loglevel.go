package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// AdoptSession tells the server that the session with this ID, opened on
// another replica, is taken over here with the state it had there (the
// log level it asked for).
func (s *Server) AdoptSession(id string, st *mcp.ServerSessionState) {
	if st != nil {
		s.plan.LogLevels.Adopt(id, st.LogLevel)
	}
}

// QuietCall reports whether a call of the named tool, whose request asks
// for no progress and no logs, sends the client nothing while it runs: the
// tool has no steps, and the session with this ID ("" for none) asked for
// no logs. A transport may then answer it without an event stream.
func (s *Server) QuietCall(tool, sessionID string) bool {
	s = s.now()
	t, ok := s.plan.ToolIndex[tool]
	return ok && len(t.Steps) == 0 && (sessionID == "" || !s.plan.LogLevels.SetBySession(sessionID))
}
