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
