package runtime

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/cachehint"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
	"github.com/yosida95/uritemplate/v3"
)

// MaxResourceSize bounds the contents of one resource read.
const MaxResourceSize = 16 << 20

// resource is a built resource or resource template.
type resource struct {
	def      *mcp.Resource         // for a fixed URI
	tmpl     *mcp.ResourceTemplate // for a template
	match    *uritemplate.Template
	vars     []string
	complete map[string][]string
	// completers list completion values of template variables (complete_from).
	completers map[string]handlers.Handler
	scopes     []string // a caller needs them all, over authenticated HTTP
	cacheCfg   *spec.CacheHint
	cache      cachehint.Hint // of reads
	meta       mcp.Meta       // _meta of every read: an app's settings
	contents
	file    *templates.Template // path inside root
	root    string
	handler handlers.Handler
	steps   []*step // they ask the client before it is read
}

// contents is what a resource holds when it is given in the config, for a
// resource and for a resource embedded in content alike: a text template,
// or fixed bytes.
type contents struct {
	mimeType string
	text     *templates.Template
	blob     []byte
}
