// Package plan holds what a built config is made of: its tools, their
// steps, its prompts and resources, each compiled and checked when the
// config builds. The server reads them for every call.
package plan

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/limits"
	"github.com/mcpgen/mcpgen/spec"
)

// Tool is a built tool, ready to call.
type Tool struct {
	Def     *mcp.Tool
	Args    *input.Args   // checks the arguments; its Schema is the tool's input schema
	Out     *input.Schema // nil: no output schema
	Handler handlers.Handler
	Backend string // what MaxCallsPerBackend counts against: the backend's name, or the kind
	Content []*content.Block
	Steps   []*Step
	IsError bool
	Bound   []BoundArg
	// needsCaller: an expression reads `auth`, so calls without an
	// authenticated caller are refused
	NeedsCaller bool
	Limit       *limits.Rates // nil: no rate limit
	Scopes      []string      // a caller needs them all, over authenticated HTTP
	Slots       *limits.Slots // nil: no concurrency limit of its own
	Cache       *limits.Cache // nil: results are not kept
	CacheCfg    *spec.CacheHint
	Requires    []string // client capabilities a call needs
	Headers     bool     // its input schema has x-mcp-header annotations
	Interactive bool     // a step asks the client something
	Task        string   // "", optional or required: whether it runs as a task
	MaxResult   int      // bytes of text a result may hold; 0: no cap
	Pages       bool     // a result over maxResult is kept in pages
	TaskAfter   int      // the last step run before a 2026 task starts; -1: none
	Tags        []string // what tool search ranks it by, beside its definition
	Always      bool     // listed even when tool search is on
}

// AuthName is the name expressions read the authenticated caller by.
const AuthName = "auth"

// BoundArg is an argument the server sets from the caller (`from:`); the
// model never sees it and a client cannot pass it.
type BoundArg struct {
	Name     string
	Type     string // the argument's type; "" is string
	Required bool
	From     *eval.Value
}
