package sqlkind

import "github.com/mcpgen/mcpgen/handlers"

// UncheckedKind is Kind without the read-only statement check: the
// database alone must then refuse every write of a read-only tool.
func UncheckedKind() handlers.Kind {
	k := Kind()
	k.NewConfig = func() handlers.Config { return &Config{unchecked: true} }
	return k
}
