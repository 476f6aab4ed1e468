package sqlkind

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// sqliteDSN resolves a SQLite DSN written in the config: a plain path or a
// file: URI, relative to the config file (env nil: as it is), or :memory:.
// A busy timeout is added unless the DSN sets one, so that concurrent
// writers wait for each other instead of failing at once.
func sqliteDSN(env handlers.BuildEnv, dsn string) (string, bool) {
	if strings.Contains(dsn, ":memory:") || strings.Contains(dsn, "mode=memory") {
		return dsn, true
	}
	path, query, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if env != nil {
		path = env.Path(path)
	}
	if !strings.Contains(query, "busy_timeout") {
		query = strings.TrimPrefix(query+"&_pragma=busy_timeout(5000)", "&")
	}
	return "file:" + path + "?" + query, false
}

// initScript reads the backend's init script, if it has one.
func (c *BackendConfig) initScript(env handlers.BuildEnv, d *dialect) *initScript {
	if c.Init == "" || d != sqliteDialect {
		return nil
	}
	body, err := os.ReadFile(env.Path(c.Init))
	if err != nil {
		env.Diag("init", fmt.Sprintf("cannot read the init script: %v", err))
		return nil
	}
	if strings.TrimSpace(string(body)) == "" {
		env.Diag("init", fmt.Sprintf("the init script %s is empty", filepath.Base(c.Init)))
		return nil
	}
	return &initScript{sql: string(body)}
}
