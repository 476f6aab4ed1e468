package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// setCacheable fills the hints of the results the go-sdk answers: the
// lists of prompts, resources and templates, and server/discover. tools/list
// and resources/read fill their own.
func (s *Server) setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListPromptsRequest:
		s.cache.Prompts.Apply(c)
	case *mcp.ListResourcesRequest:
		s.cache.Resources.Apply(c)
	case *mcp.ListResourceTemplatesRequest:
		s.cache.Templates.Apply(c)
	case *mcp.ServerRequest[*mcp.DiscoverParams]:
		s.cache.Server.Apply(c)
	}
}
