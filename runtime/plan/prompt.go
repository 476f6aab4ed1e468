package plan

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/spec"
)

// Prompt is a built prompt.
type Prompt struct {
	Def        *mcp.Prompt
	Args       []*spec.PromptArg
	Roles      []mcp.Role
	Messages   []*content.Block
	Completers map[string]handlers.Handler // by argument, from complete_from
	Scopes     []string                    // a caller needs them all, over authenticated HTTP
	CacheCfg   *spec.CacheHint
	Steps      []*Step
}
