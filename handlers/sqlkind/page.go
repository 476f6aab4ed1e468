package sqlkind

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/sqlkind/sqlcursor"
)

// Page returns a query's rows a page at a time. Each result holds one page
// and, when there are more rows, a `nextCursor`; the tool gets an optional
// `cursor` argument (and `limit` with max_size) through which the model
// asks for the next page. The query's own text is never changed: it is
// wrapped, and the cursor's values are bound as parameters, so a cursor
// can only move within the rows the query selects.
type Page struct {
	// Keyset pages by these columns of the result, which together tell
	// every row apart: [id], or [created_at desc, id desc]. mcpgen orders
	// the rows by them itself (the query has no ORDER BY of its own) and
	// fetches the rows after the last one seen, which stays fast and
	// exact on a large table that changes meanwhile. Names are written as
	// the database returns them (lowercase on PostgreSQL for unquoted
	// names); the columns must never be null. The query's columns need
	// distinct names (alias a join's second id), as it is wrapped.
	Keyset []string `yaml:"keyset,omitempty" mcpgen:"exactly_one=page"`
	// Offset pages by LIMIT and OFFSET, for queries without a column that
	// tells rows apart. The query gives its ORDER BY, which must order the
	// rows completely; rows added or removed between calls shift pages.
	Offset bool `yaml:"offset,omitempty" mcpgen:"exactly_one=page"`
	// Size is the number of rows in a page. Defaults to 50.
	Size int `yaml:"size,omitempty" jsonschema:"minimum=1,maximum=10000"`
	// MaxSize, when set, gives the tool a `limit` argument with which the
	// model asks for pages of 1 to max_size rows.
	MaxSize int `yaml:"max_size,omitempty" jsonschema:"minimum=1,maximum=10000"`
}

// defaultPageSize is the rows of a page when page.size is not set.
const defaultPageSize = 50

// maxPageSize bounds page.size and page.max_size.
const maxPageSize = 10000

// keyPattern is a keyset entry: a plain column name, then asc or desc.
var keyPattern = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]{0,62})(?:\s+((?i)asc|desc))?$`)

// pageParam prefixes the placeholders of the wrapper: a statement's own
// cannot start with it.
const pageParam = "mcpgen_page_"

// pager is a compiled Page.
type pager struct {
	keys   []string // the keyset's columns
	desc   []bool   // per key
	size   int
	max    int // of the limit argument; 0 for none
	codec  sqlcursor.Codec
	params int // index in handler.params of the first of the pager's
	// hidden: the query returns the keys again, as stored, after the
	// result's columns (sqlite, whose driver turns the text of a DATETIME
	// column into a time, which binds as other text).
	hidden bool
	next   *handler
}

// paramNames are the placeholders the wrapper binds: the limit, the
// offset or one per key, in the order of pager.values.
func (p *pager) paramNames() []string {
	if p.keys == nil {
		return []string{pageParam + "limit", pageParam + "offset"}
	}
	names := []string{pageParam + "limit"}
	for i := range p.keys {
		names = append(names, fmt.Sprintf("%sk%d", pageParam, i))
	}
	return names
}

// compilePage checks the page block against the query and wraps the
// handler's one step; the step for the pages after the first is made too.
func (c *Config) compilePage(env handlers.BuildEnv, h *handler) {
	pg := c.Page
	if pg == nil {
		return
	}
	if !c.checkPage(env) || len(h.steps) != 1 {
		return
	}
	p := &pager{size: cmp.Or(pg.Size, defaultPageSize), max: pg.MaxSize}
	for i, k := range pg.Keyset {
		m := keyPattern.FindStringSubmatch(strings.TrimSpace(k))
		if m == nil {
			env.Diag(fmt.Sprintf("page.keyset[%d]", i), fmt.Sprintf("%q is not a column name; write a name "+
				"(letters, digits and _), then asc or desc, e.g. id or created_at desc", k))
			continue
		}
		if slices.Contains(p.keys, m[1]) {
			env.Diag(fmt.Sprintf("page.keyset[%d]", i), fmt.Sprintf("column %s is in the keyset twice", m[1]))
		}
		p.keys = append(p.keys, m[1])
		p.desc = append(p.desc, strings.EqualFold(m[2], "desc"))
	}
	st := h.steps[0]
	src, ok := pageable(env, st, pg, p, c.Query)
	if !ok || env.Failed() {
		return
	}
	p.hidden = p.keys != nil && h.dialect == sqliteDialect
	p.codec.Salt = []byte(h.dialect.name + "\x00" + strings.Join(pg.Keyset, ",") + "\x00" + c.Query)
	first, next := p.wrap(src, h.dialect)
	firstSt, err := rewrap(st.st, first, h.dialect)
	var nextSt *statement
	if err == nil && next != "" {
		nextSt, err = rewrap(st.st, next, h.dialect)
	}
	if err != nil { // the statement translated alone, and the wrapper adds plain code
		env.Diag(st.field, fmt.Sprintf("the paged statement cannot be written: %v", err))
		return
	}
	st.st = firstSt
	if nextSt != nil {
		p.next = &handler{steps: []*step{{field: st.field, st: nextSt}}}
	}
	h.maxRows = max(p.size, p.max) + 1
	h.page = p
}

// rewrap translates the wrapped text of a statement; the placeholders
// found stay those of the statement as written, for messages.
func rewrap(st *statement, text string, d *dialect) (*statement, error) {
	w, err := translate(text, d.syntax)
	if err != nil {
		return nil, err
	}
	w.found = st.found
	return w, nil
}

// checkPage reports a page block that does not fit the rest of the
// config; false when the query cannot be paged.
func (c *Config) checkPage(env handlers.BuildEnv) bool {
	pg, ok := c.Page, true
	bad := func(field, msg string) {
		env.Diag(field, msg)
		ok = false
	}
	switch {
	case c.Query == "":
		bad("page", "page is for a tool with a single `query`")
	case c.OneRow:
		bad("one_row", "one_row returns one row: it cannot be paged")
	case len(pg.Keyset) == 0 && !pg.Offset:
		bad("page", "give keyset (columns that tell rows apart, e.g. keyset: [id]) or offset: true")
	}
	if c.MaxRows != 0 {
		bad("max_rows", "a paged tool returns page.size rows a call (page.max_size at most); remove max_rows")
	}
	if pg.Size < 0 || pg.Size > maxPageSize {
		bad("page.size", fmt.Sprintf("must be from 1 to %d", maxPageSize))
	}
	if pg.MaxSize != 0 && (pg.MaxSize < cmp.Or(pg.Size, defaultPageSize) || pg.MaxSize > maxPageSize) {
		bad("page.max_size", fmt.Sprintf("must be from page.size (%d) to %d", cmp.Or(pg.Size, defaultPageSize), maxPageSize))
	}
	for name := range c.Params {
		if strings.HasPrefix(name, pageParam) {
			bad("params."+name, fmt.Sprintf("parameters starting with %s are the pager's; rename it", pageParam))
		}
	}
	return ok
}

// ExtendInput gives a paged tool its `cursor` argument, and `limit` when
// page.max_size is set; an argument of the same name that the tool
// declares itself must be of the same type.
func (c *Config) ExtendInput(env handlers.BuildEnv, schema map[string]any) map[string]any {
	if c.Page == nil {
		return nil
	}
	props, _ := schema["properties"].(map[string]any)
	add := map[string]any{"cursor": map[string]any{"type": "string", "maxLength": sqlcursor.MaxLen,
		"description": "nextCursor of the previous result, for the next page; leave it out for the first page"}}
	if c.Page.MaxSize > 0 {
		size := cmp.Or(c.Page.Size, defaultPageSize)
		add["limit"] = map[string]any{"type": "integer", "minimum": 1, "maximum": c.Page.MaxSize,
			"description": fmt.Sprintf("Rows per page, 1 to %d; %d when left out", c.Page.MaxSize, size)}
	}
	for name, want := range map[string]string{"cursor": "string", "limit": "integer"} {
		p, _ := props[name].(map[string]any)
		if p == nil || add[name] == nil {
			continue
		}
		if p["type"] != want {
			env.Diag("page", fmt.Sprintf("the tool declares a %s argument that is not of type %s; page passes "+
				"its %s through it: remove the argument, or make it a %s", name, want, name, want))
		}
	}
	return add
}

var _ handlers.InputExtender = (*Config)(nil)
