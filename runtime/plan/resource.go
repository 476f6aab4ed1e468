package plan

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

// AppMIMEType is the MIME type of an app's page (MCP Apps).
const AppMIMEType = "text/html;profile=mcp-app"

// Resource is a built resource or resource template.
type Resource struct {
	Def      *mcp.Resource         // for a fixed URI
	Tmpl     *mcp.ResourceTemplate // for a template
	Match    *uritemplate.Template
	Vars     []string
	Complete map[string][]string
	// completers list completion values of template variables (complete_from).
	Completers map[string]handlers.Handler
	Scopes     []string // a caller needs them all, over authenticated HTTP
	CacheCfg   *spec.CacheHint
	Cache      cachehint.Hint // of reads
	Meta       mcp.Meta       // _meta of every read: an app's settings
	Contents
	File    *templates.Template // path inside root
	Root    string
	Handler handlers.Handler
	Steps   []*Step // they ask the client before it is read
	// Skill names the skill this is a file of; its bytes are Blob, served
	// as text when they are text.
	Skill  string
	Digest string // of a skill's file: sha256:HEX
}

// Contents is what a resource holds when it is given in the config, for a
// resource and for a resource embedded in content alike: a text template,
// or fixed bytes.
type Contents struct {
	MimeType string
	Text     *templates.Template
	Blob     []byte
}

// URIArgs binds the variables of a templated resource's URI template to
// uri; false when uri does not match it. A fixed resource has none.
func (res *Resource) URIArgs(uri string) (map[string]any, bool) {
	args := map[string]any{}
	if res.Match != nil {
		vals := res.Match.Match(uri)
		if vals == nil {
			return nil, false
		}
		for _, v := range res.Vars {
			args[v] = vals.Get(v).String()
		}
	}
	return args, true
}
