package sqlkind

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
)

// Limits used when a handler does not set its own.
const (
	defaultMaxRows = 500
	defaultTimeout = 30 * time.Second
)

// Config runs one tool (or resource) on a database named by `backend:`.
type Config struct {
	// Query is one statement that reads, e.g. SELECT … WHERE id = :id. Its
	// rows are the result. Parameters are written :name (ASCII letters,
	// digits and _) and bound from `params`, never spliced into the text. A
	// :name inside a string literal, a quoted identifier or a comment is
	// left alone, as are casts (x::int) and slices (arr[lo:hi]); positional
	// placeholders (?, $1) are refused.
	Query string `yaml:"query,omitempty" mcpgen:"exactly_one=statement"`
	// Exec is one statement that changes data (INSERT, UPDATE, DELETE); the
	// result is the number of rows affected. Exec tools are not read-only
	// and are announced to clients as destructive.
	Exec string `yaml:"exec,omitempty" mcpgen:"exactly_one=statement"`
	// Statements run in order in one transaction: all of them take effect or
	// none. The result lists each statement's result.
	Statements []*Statement `yaml:"statements,omitempty" mcpgen:"exactly_one=statement"`
	// Params binds each :name placeholder to a value, usually an
	// expression over the arguments: `limit: "${{ args.limit ?? 20 }}"`.
	// Every placeholder needs a parameter and every parameter must be used.
	// A list is bound as an array on postgres (`id = ANY(:ids)`) and as
	// JSON text on sqlite and mysql (`id IN (SELECT value FROM
	// json_each(:ids))`); an object is bound as JSON text.
	Params map[string]*spec.Value `yaml:"params,omitempty"`
	// ReadOnly makes the tool unable to change anything, on two lines: when
	// the config loads, each statement must be a single query (SELECT,
	// WITH, VALUES, TABLE, SHOW, EXPLAIN, DESCRIBE) with no INTO, no
	// data-changing statement inside it and no MySQL /*! */ comment; when
	// it runs, the database refuses writes (connections that default to
	// read-only plus a READ ONLY transaction on postgres and mysql; on
	// sqlite, connections with PRAGMA query_only on that may prepare only
	// statements that read). Defaults to true when there is no `exec`.
	ReadOnly *bool `yaml:"read_only,omitempty"`
	// MaxRows caps the rows returned by each query; the result says when it
	// was truncated. Defaults to the backend's max_rows, or 500.
	MaxRows int `yaml:"max_rows,omitempty"`
	// Timeout bounds the whole call, e.g. 5s; the database is also told
	// (statement_timeout on postgres, max_statement_time on MariaDB).
	// Defaults to the backend's timeout, or 30s.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
	// Format of the text result: table (aligned columns, the default), csv
	// or json. The structured result is the same for all three. Defaults
	// to the backend's format.
	Format string `yaml:"format,omitempty" jsonschema:"enum=table,enum=csv,enum=json"`
	// OneRow makes the result the first row alone, as an object; no row is
	// an error ("not found" for a resource). Handy for resource templates
	// such as db://customers/{id}. Only with `query`.
	OneRow bool `yaml:"one_row,omitempty"`
	// JSONColumns lists columns whose text holds JSON, returned as JSON
	// values. Columns the driver reports as JSON (postgres json and jsonb,
	// MySQL JSON) need not be listed; MariaDB stores JSON as text.
	JSONColumns []string `yaml:"json_columns,omitempty"`
	// Session makes the database see this tool's caller (a role, settings
	// from auth.*), in place of the backend's session. See the backend's
	// `session`.
	Session *Session `yaml:"session,omitempty"`
	// Page returns the query's rows a page at a time: each result holds
	// one page and, when there are more rows, a nextCursor that the model
	// passes back as the tool's `cursor` argument, which mcpgen adds (and
	// `limit`, with max_size). Keyset pages (keyset: [id]) or offset pages
	// (offset: true). Only with `query`.
	Page *Page `yaml:"page,omitempty"`

	// unchecked skips the read-only statement check, for tests proving that
	// the database refuses writes on its own.
	unchecked bool
}

// Statement is one step of a multi-statement tool: a query or an exec.
type Statement struct {
	// Query is a statement whose rows are returned.
	Query string `yaml:"query,omitempty" mcpgen:"exactly_one=statement"`
	// Exec is a statement whose rows affected are returned.
	Exec string `yaml:"exec,omitempty" mcpgen:"exactly_one=statement"`
}

// Build checks the configuration against its backend and returns the handler.
func (c *Config) Build(env handlers.BuildEnv) handlers.Handler {
	v, err := env.Backend("")
	if err != nil {
		env.Diag("", fmt.Sprintf("an sql handler needs `backend:` naming an sql entry of backends: %v", err))
		return nil
	}
	db, ok := v.(Database)
	if !ok {
		env.Diag("backend", "the backend is not an sql backend")
		return nil
	}
	h := &handler{db: db, dialect: dialectOf(db.Driver()), maxRows: cmp.Or(c.MaxRows, defaultMaxRows),
		timeout: time.Duration(c.Timeout), format: c.Format, oneRow: c.OneRow, jsonCols: c.JSONColumns}
	h.server = &serverState{}
	if d, ok := db.(*DB); ok {
		h.server = &d.server
		h.notices = d.notices
		h.maxRows = cmp.Or(c.MaxRows, d.tools.maxRows, defaultMaxRows)
		h.timeout = cmp.Or(h.timeout, d.tools.timeout)
		h.format = cmp.Or(h.format, d.tools.format)
	}
	if h.timeout <= 0 {
		h.timeout = defaultTimeout
	}
	c.checkShape(env)
	c.statements(env, h)
	c.compilePage(env, h)
	c.params(env, h)
	c.session(env, h, db)
	if env.Failed() {
		return nil
	}
	h.stmts = make([]*preparedStmt, len(h.steps))
	for i := range h.stmts {
		h.stmts[i] = &preparedStmt{}
	}
	if h.page != nil && h.page.next != nil {
		next := *h
		next.steps, next.stmts = h.page.next.steps, []*preparedStmt{{}}
		h.page.next = &next
	}
	return h
}

// session compiles the handler's own session, or takes its backend's;
// either way a tool acting for its caller needs one.
func (c *Config) session(env handlers.BuildEnv, h *handler, db Database) {
	if c.Session != nil {
		h.identity = compileSession(env, "session", c.Session, h.dialect, nil)
		return
	}
	d, ok := db.(*DB)
	if !ok || d.identity == nil {
		return
	}
	h.identity = d.identity
	if !d.identity.usesCaller {
		return
	}
	ce, ok := env.(handlers.CallerEnv)
	if !ok {
		env.Diag("backend", "the backend sets its session from the caller, and this handler cannot have one")
		return
	}
	ce.ActForCaller("backend", "the backend sets the database session from the caller")
}

// checkShape reports settings that contradict each other.
func (c *Config) checkShape(env handlers.BuildEnv) {
	if c.MaxRows < 0 {
		env.Diag("max_rows", "must not be negative")
	}
	if c.Timeout < 0 {
		env.Diag("timeout", "must not be negative")
	}
	if c.OneRow && c.Query == "" {
		env.Diag("one_row", "one_row is for a single query")
	}
	if c.ReadOnly != nil && *c.ReadOnly && c.writes() {
		env.Diag("read_only", "a read-only handler cannot have exec statements; the database would refuse them")
	}
}

// writes reports whether any statement is an exec.
func (c *Config) writes() bool {
	if c.Exec != "" {
		return true
	}
	for _, s := range c.Statements {
		if s != nil && s.Exec != "" {
			return true
		}
	}
	return false
}

// statements translates every statement to the backend's placeholder style.
func (c *Config) statements(env handlers.BuildEnv, h *handler) {
	h.readOnly = !c.writes()
	if c.ReadOnly != nil {
		h.readOnly = *c.ReadOnly
	}
	type src struct {
		field, text string
		exec        bool
	}
	var srcs []src
	switch {
	case c.Statements != nil:
	case c.Exec == "":
		srcs = append(srcs, src{"query", c.Query, false})
	default:
		srcs = append(srcs, src{"exec", c.Exec, true})
	}
	for i, s := range c.Statements {
		p := fmt.Sprintf("statements[%d]", i)
		switch {
		case s == nil:
			continue // the loader reported it
		case s.Exec == "":
			srcs = append(srcs, src{p + ".query", s.Query, false})
		default:
			srcs = append(srcs, src{p + ".exec", s.Exec, true})
		}
	}
	if len(srcs) == 0 {
		env.Diag("statements", "give at least one statement")
		return
	}
	for _, s := range srcs {
		if strings.TrimSpace(s.text) == "" {
			env.Diag(s.field, "the statement is empty")
			continue
		}
		if i := strings.Index(s.text, eval.Open); i >= 0 {
			env.DiagAt(s.field, i, "an expression cannot be spliced into SQL; write a :name placeholder and bind the expression in params")
			continue
		}
		st, err := translate(s.text, h.dialect.syntax)
		if err != nil {
			off := -1
			var se *syntaxError
			if errors.As(err, &se) {
				off = se.off // point at the character
			}
			env.DiagAt(s.field, off, err.Error())
			continue
		}
		if h.readOnly && !s.exec && !c.unchecked {
			if err := checkReadOnly(s.text, st, h.dialect.syntax); err != nil {
				env.Diag(s.field, fmt.Sprintf("%v; a tool meant to write says read_only: false", err))
				continue
			}
		}
		h.steps = append(h.steps, &step{field: s.field, st: st, exec: s.exec})
	}
}

// params compiles the parameters and checks that placeholders and
// parameters match one to one.
func (c *Config) params(env handlers.BuildEnv, h *handler) {
	used := map[string]bool{}
	for _, s := range h.steps {
		for _, p := range s.st.found {
			used[p.name] = true
			if _, has := c.Params[p.name]; !has {
				env.DiagAt(s.field, p.off, fmt.Sprintf("placeholder :%s has no parameter; add params.%s", p.name, p.name))
			}
		}
	}
	index := map[string]int{}
	for _, name := range sortedNames(c.Params) {
		if !used[name] {
			env.Diag("params."+name, fmt.Sprintf("parameter %q is not used by any statement; write :%s where it belongs or remove it", name, name))
			continue
		}
		if v := env.Compile("params."+name, c.Params[name], nil); v != nil {
			index[name] = len(h.params)
			h.params = append(h.params, param{name: name, value: v})
		}
	}
	if h.page != nil {
		h.page.params = len(h.params)
		for _, name := range h.page.paramNames() {
			index[name] = len(h.params)
			h.params = append(h.params, param{name: name})
		}
	}
	steps := h.steps
	if h.page != nil && h.page.next != nil {
		steps = append(slices.Clip(steps), h.page.next.steps...)
	}
	for _, s := range steps {
		s.binds = make([]int, len(s.st.binds))
		for j, name := range s.st.binds {
			s.binds[j] = index[name]
		}
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

var _ handlers.Config = (*Config)(nil)
