// Package builtin assembles the backend kinds mcpgen ships with.
package builtin

import (
	"github.com/mcpgen/mcpgen/handlers"
	httpkind "github.com/mcpgen/mcpgen/handlers/http"
	"github.com/mcpgen/mcpgen/handlers/shell"
	sqlkind "github.com/mcpgen/mcpgen/handlers/sql"
)

// Registry returns a new registry holding every built-in backend kind.
func Registry() *handlers.Registry {
	return handlers.NewRegistry(Kinds()...)
}

// Kinds lists the built-in backend kinds.
func Kinds() []handlers.Kind {
	return []handlers.Kind{shell.Kind(), httpkind.Kind(), sqlkind.Kind()}
}
