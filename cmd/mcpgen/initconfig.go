package main

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// schemaURL is where editors fetch the config's JSON Schema.
const schemaURL = "https://raw.githubusercontent.com/mcpgen/mcpgen/main/schema/mcpgen.schema.json"

// starter is what `mcpgen init` writes a config for.
type starter struct {
	name  string
	shell bool
	http  string // the API's base URL
	sql   *dsnInfo
}

// dsnInfo is a database the user gave.
type dsnInfo struct {
	driver string // sqlite, postgres or mysql
	dsn    string
	secret bool // it holds a password: kept out of the file
}

// parseDSN tells the driver from a DSN's shape: postgres:// URLs, MySQL's
// user:password@tcp(host)/db, else a SQLite file.
func parseDSN(s string) *dsnInfo {
	d := &dsnInfo{driver: "sqlite", dsn: s}
	switch {
	case strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://"):
		d.driver = "postgres"
		if u, err := url.Parse(s); err == nil && u.User != nil {
			_, d.secret = u.User.Password()
		}
	case strings.Contains(s, "@tcp(") || strings.Contains(s, "@unix("):
		d.driver = "mysql"
		user, _, _ := strings.Cut(s, "@")
		d.secret = strings.Contains(user, ":")
	}
	return d
}

var nameRE = regexp.MustCompile(`[^a-z0-9]+`)

// serverName makes a name from the directory the config goes in.
func serverName(out string) string {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "my-server"
	}
	n := strings.Trim(nameRE.ReplaceAllString(strings.ToLower(filepath.Base(filepath.Dir(abs))), "-"), "-")
	if n == "" {
		return "my-server"
	}
	return n
}

// config renders the starter config.
func (st *starter) config(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# yaml-language-server: $schema=%s
#
# %s: an MCP server described in YAML, written by mcpgen init.
#
#   mcpgen validate %[3]s        every problem, with its line and column
#   mcpgen test %[3]s            run the tests in %[4]s
#   mcpgen serve %[3]s           serve on stdio (a client starts this itself)
#   mcpgen client-config %[3]s   what to add to Claude Desktop, Cursor, VS Code, Codex
#
# Every field is described in the schema above (editors complete and check
# it) and by mcpgen schema.
version: 1

server:
  name: %[2]s
  # What the model reads first: say what the tools are for.
  instructions: Tools for %[2]s.
`, schemaURL, st.name, filepath.Base(file), testFileName(file))
	st.writeBackends(&b)
	b.WriteString("\ntools:\n")
	if st.shell {
		b.WriteString(shellTool)
	}
	if st.http != "" {
		b.WriteString(httpTool)
	}
	if st.sql != nil {
		fmt.Fprintf(&b, sqlTool, tablesQuery[st.sql.driver])
	}
	st.writeSkill(&b)
	return b.String()
}

// writeSkill writes a skill using the tools written, commented out.
func (st *starter) writeSkill(b *strings.Builder) {
	var tools []string
	for _, t := range []struct {
		on   bool
		name string
	}{{st.shell, "list_files"}, {st.http != "", "api_status"}, {st.sql != nil, "list_tables"}} {
		if t.on {
			tools = append(tools, t.name)
		}
	}
	if len(tools) == 0 {
		return
	}
	fmt.Fprintf(b, `
# Skills teach the model how to do a task with these tools, step by step:
# clients find them with the MCP skills extension and read the steps at
# skill://NAME/SKILL.md. Remove the # signs to serve this one; longer
# steps go in a Markdown file (instructions_file), extra files in files.
# skills:
#   - name: getting-started
#     description: How to begin a task with the tools of %s.
#     instructions: |
#       1. Call %s first, to see what there is.
#       2. Say what you found before you change anything.
#     tools: [%s]
`, st.name, tools[0], strings.Join(tools, ", "))
}

func (st *starter) writeBackends(b *strings.Builder) {
	if st.http == "" && st.sql == nil {
		return
	}
	b.WriteString("\n# Connections shared by tools; ${VAR} reads the environment when the\n# config loads, ${VAR:-default} with a default.\nbackends:\n")
	if st.http != "" {
		fmt.Fprintf(b, `  api:
    kind: http
    base_url: ${API_URL:-%s}
    headers: {Accept: application/json}
    # When the API wants a token (never write it here):
    # auth: {bearer: "${API_TOKEN}"}
    timeout: 15s
`, st.http)
	}
	if d := st.sql; d != nil {
		dsn := "${DATABASE_URL:-" + d.dsn + "}"
		if d.secret {
			dsn = "${DATABASE_URL}   # it holds a password: set DATABASE_URL where the server runs"
		}
		fmt.Fprintf(b, `  db:
    kind: sql
    driver: %s
    dsn: %s
`, d.driver, dsn)
	}
}

const shellTool = `  # A local command. The command is an argv list run without a shell: an
  # argument fills one element after "--" and is never parsed as code or
  # as an option.
  - name: list_files
    title: List files
    description: List the files of a directory with their sizes and dates (ls -l).
    args:
      - name: path
        description: Directory to list, relative to where the server runs.
        default: "."
    annotations: {read_only: true}
    handler:
      kind: shell
      command: [ls, -l, --, "${{ args.path }}"]
      path_args: [path]   # stays inside the working directory: no "..", no absolute path
      timeout: 10s

`

const httpTool = `  # An HTTP call. Copy it for each endpoint you need: the path may hold
  # arguments (/items/${{ args.id }}, escaped), and query and body take them
  # too (query: {q: "${{ args.text }}"}).
  - name: api_status
    title: API status
    description: Fetch the API's base URL and return what it answers.
    annotations: {read_only: true}
    handler:
      backend: api
      path: /

`

const sqlTool = `  # An SQL query. Arguments are bound as parameters (:name), never spliced
  # into the statement; read_only runs it in a read-only transaction.
  - name: list_tables
    title: List tables
    description: List the tables of the database.
    annotations: {read_only: true}
    handler:
      backend: db
      read_only: true
      query: %s
      max_rows: 500
`

var tablesQuery = map[string]string{
	"sqlite":   "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
	"postgres": "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2",
	"mysql":    "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY 1",
}

// testFileName is the test file beside a config.
func testFileName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)) + ".test.yaml"
}

// tests renders the starter tests of the config.
func (st *starter) tests(file string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `# Behaviour tests of %s: mcpgen test runs them offline, through an MCP
# client of the server, and exits 1 when one fails.
`, filepath.Base(file))
	if st.sql != nil && st.sql.driver == "sqlite" {
		b.WriteString("env:\n  DATABASE_URL: \":memory:\"   # every test gets an empty in-memory database\n")
	}
	if !st.shell && st.http == "" {
		b.WriteString("tests: []   # list_tables needs the database: see needs_env and seed in the README\n")
		return b.String()
	}
	b.WriteString("tests:\n")
	if st.shell {
		b.WriteString(`  - name: list the working directory
    call: list_files
    expect:
      is_error: false
  - name: no path out of the working directory
    call: list_files
    args: {path: ../..}
    expect:
      is_error: true
`)
	}
	if st.http != "" {
		fmt.Fprintf(&b, `  # The API's answer is written here; mcpgen test --record calls the real
  # API once and keeps its answers in %s instead.
  - name: the API answers
    call: api_status
    http:
      - request: {url: %s}
        response: {status: 200, body: ok}
    expect:
      text: {equals: ok}
`, strings.TrimSuffix(testFileName(file), ".test.yaml")+".recorded.yaml", strings.TrimSuffix(st.http, "/")+"/")
	}
	switch {
	case st.sql != nil && st.sql.driver == "sqlite":
		b.WriteString(`  - name: tables of a seeded database
    call: list_tables
    seed: {db: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)"}
    expect:
      json: {"rows[0].name": notes}
`)
	case st.sql != nil:
		b.WriteString("  # list_tables needs the database: see needs_env and seed in the README.\n")
	}
	return b.String()
}
