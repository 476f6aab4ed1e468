package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// MCP Apps (SEP-1865): a tool names a ui:// resource holding an HTML page,
// which clients that support the extension render with the tool's results.
//
// appExtension is the extension's identifier in capabilities.extensions.
const appExtension = "io.modelcontextprotocol/ui"

// appCapability advertises the extension when the config has apps.
func (s *Server) appCapability(caps *mcp.ServerCapabilities) {
	if len(s.plan.Apps) > 0 {
		caps.AddExtension(appExtension, map[string]any{"mimeTypes": []string{plan.AppMIMEType}})
	}
}
