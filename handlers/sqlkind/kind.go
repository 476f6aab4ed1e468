// Package sqlkind is the `sql` backend kind: tools, resources and
// completions answered by SQLite (pure Go), PostgreSQL or MySQL/MariaDB.
//
// Statements are static text. Parameters are written :name and translated
// to each driver's placeholders (? or $1); their values come from `params`
// and are always bound, never spliced into the text. Read-only tools run
// only plain queries (see readonly.go), on connections and in transactions
// the database itself keeps read-only. Connections are named
// `backends:` entries opened without connecting, so a database that is down
// fails its tools with an error until it is back instead of stopping the
// server.
package sqlkind

import "github.com/mcpgen/mcpgen/handlers"

// Kind returns the `sql` backend kind.
func Kind() handlers.Kind {
	return handlers.Kind{
		Name:       "sql",
		Doc:        "Runs SQL statements with bound parameters on SQLite, PostgreSQL or MySQL/MariaDB.",
		NewConfig:  func() handlers.Config { return &Config{} },
		NewBackend: func() handlers.BackendConfig { return &BackendConfig{} },
	}
}
