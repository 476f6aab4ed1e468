package runtime

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/spec"
)

// prompt is a built prompt.
type prompt struct {
	def        *mcp.Prompt
	args       []*spec.PromptArg
	roles      []mcp.Role
	messages   []*content.Block
	completers map[string]handlers.Handler // by argument, from complete_from
	scopes     []string                    // a caller needs them all, over authenticated HTTP
	cacheCfg   *spec.CacheHint
	steps      []*step
}
