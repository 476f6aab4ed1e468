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
		s.plan.Cache.Prompts.Apply(c)
	case *mcp.ListResourcesRequest:
		s.plan.Cache.Resources.Apply(c)
	case *mcp.ListResourceTemplatesRequest:
		s.plan.Cache.Templates.Apply(c)
	case *mcp.ServerRequest[*mcp.DiscoverParams]:
		s.plan.Cache.Server.Apply(c)
	}
}
