package runtime

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/limits"
	"github.com/mcpgen/mcpgen/spec"
)

// tool is a built tool, ready to call.
type tool struct {
	def     *mcp.Tool
	args    *input.Args   // checks the arguments; its Schema is the tool's input schema
	out     *input.Schema // nil: no output schema
	handler handlers.Handler
	backend string // what MaxCallsPerBackend counts against: the backend's name, or the kind
	content []*content.Block
	steps   []*step
	isError bool
	bound   []boundArg
	// needsCaller: an expression reads `auth`, so calls without an
	// authenticated caller are refused
	needsCaller bool
	limit       *limits.Rates // nil: no rate limit
	scopes      []string      // a caller needs them all, over authenticated HTTP
	slots       *limits.Slots // nil: no concurrency limit of its own
	cache       *limits.Cache // nil: results are not kept
	cacheCfg    *spec.CacheHint
	requires    []string // client capabilities a call needs
	headers     bool     // its input schema has x-mcp-header annotations
	interactive bool     // a step asks the client something
	task        string   // "", optional or required: whether it runs as a task
	maxResult   int      // bytes of text a result may hold; 0: no cap
	pages       bool     // a result over maxResult is kept in pages
	taskAfter   int      // the last step run before a 2026 task starts; -1: none
}
