// Package builtin assembles the backend kinds mcpgen ships with.
package builtin

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/graphqlkind"
	"github.com/mcpgen/mcpgen/handlers/httpkind"
	"github.com/mcpgen/mcpgen/handlers/shellkind"
	"github.com/mcpgen/mcpgen/handlers/sqlkind"
)

// Registry returns a new registry holding every built-in backend kind.
func Registry() *handlers.Registry {
	return handlers.NewRegistry(Kinds()...)
}

// Kinds lists the built-in backend kinds.
func Kinds() []handlers.Kind {
	return []handlers.Kind{shellkind.Kind(), httpkind.Kind(), sqlkind.Kind(), graphqlkind.Kind()}
}
