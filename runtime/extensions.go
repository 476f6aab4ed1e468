package runtime

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Extensions are optional protocol features negotiated by name (2026-07-28
// basic/versioning: capabilities.extensions). A feature of mcpgen that
// serves one declares it while the server is built; the server advertises
// it in server/discover and initialize, and the feature asks, per request,
// whether the client declared it too (clientExtension) before it relies on
// it, falling back to core behaviour or refusing with -32021 otherwise.

// declareExtension advertises extension id (a reverse-DNS prefix, a slash
// and a name, e.g. io.modelcontextprotocol/tasks) with its settings; nil
// settings advertise it without any. An id without a prefix is a mistake
// in mcpgen's code, not in a config.
func (s *Server) declareExtension(id string, settings map[string]any) {
	prefix, name, ok := strings.Cut(id, "/")
	if !ok || prefix == "" || name == "" || !strings.Contains(prefix, ".") {
		panic(fmt.Sprintf("extension id %q is not prefix/name", id))
	}
	if s.plan.Extensions == nil {
		s.plan.Extensions = map[string]map[string]any{}
	}
	if settings == nil {
		settings = map[string]any{}
	}
	s.plan.Extensions[id] = settings
}

// addExtensions puts the declared extensions in the server's capabilities.
func (s *Server) addExtensions(caps *mcp.ServerCapabilities) {
	for id, settings := range s.plan.Extensions {
		caps.AddExtension(id, settings)
	}
}

// clientExtension returns the settings of extension id as the request's
// client declared it; false when it did not.
func clientExtension(caps *mcp.ClientCapabilities, id string) (any, bool) {
	if caps == nil {
		return nil, false
	}
	v, ok := caps.Extensions[id]
	return v, ok
}
