package sqlkind

import (
	"database/sql"
	"slices"
	"strconv"
	"sync/atomic"
)

// rowReader is what readRows reads: database/sql's rows (sqlRows), or those
// of a read-only SQLite connection (cachedRows).
type rowReader interface {
	// names returns the names of the columns.
	names() ([]string, error)
	// dbType returns the database type of column i.
	dbType(i int) string
	// next moves to the next row; false at the end or on error.
	next() (bool, error)
	// value returns column i of the row, valid until the next call of next.
	value(i int) any
}

// readRows reads at most h.maxRows rows of a statement whose columns were
// last seen in cols, converted to JSON values.
func (h *handler) readRows(rows rowReader, cols *atomic.Pointer[columnSet]) (*stepResult, error) {
	names, err := rows.names()
	if err != nil {
		return nil, err
	}
	c := cols.Load()
	if c == nil || !c.fits(names, rows) {
		c = h.columnSet(names, rows)
		cols.Store(c)
	}
	r := &stepResult{columns: c.unique, list: c.list}
	for {
		ok, err := rows.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return r, nil
		}
		if len(r.rows) == h.maxRows {
			r.truncated = true
			return r, nil
		}
		if c.keyAt != nil {
			if err := c.keyValues(h.page, rows, &r.keys); err != nil {
				return nil, err
			}
		}
		row := make([]any, len(c.convs))
		for i, conv := range c.convs {
			row[i] = conv.convert(rows.value(i))
		}
		if r.rows == nil {
			r.rows = make([][]any, 0, min(h.maxRows, firstRows))
		}
		r.rows = append(r.rows, row)
	}
}

// firstRows is the room made for rows at the first: most tools return a
// few, which then take one allocation instead of one per doubling.
const firstRows = 4

// columnSet is what the columns of a statement's result decide. The
// results of the calls that return the same columns share it, so it is
// never changed.
type columnSet struct {
	names  []string // as the database names them
	types  []string // their database types
	unique []string // uniqueNames(names)
	list   any      // unique as a []any, for structured content
	convs  []converter
	keyAt  []int // the columns of the keyset of a paged handler
}

// columnSet makes the columnSet of names, whose types rows tells.
func (h *handler) columnSet(names []string, rows rowReader) *columnSet {
	shown := h.page.shown(names)
	c := &columnSet{names: slices.Clone(names), types: make([]string, len(names)),
		unique: uniqueNames(shown), convs: make([]converter, len(shown))}
	list := make([]any, len(shown))
	for i := range names {
		c.types[i] = rows.dbType(i)
	}
	for i, name := range shown {
		list[i] = c.unique[i]
		c.convs[i] = h.converter(name, c.types[i])
	}
	c.list = list
	c.keyAt = keyColumns(h.page, names)
	return c
}

// fits reports whether c describes the columns of rows, named names.
func (c *columnSet) fits(names []string, rows rowReader) bool {
	if !slices.Equal(c.names, names) {
		return false
	}
	for i, t := range c.types {
		if rows.dbType(i) != t {
			return false
		}
	}
	return true
}

// uniqueNames names the columns, suffixing repeats (id, id_2) so that every
// value of a row object survives a join.
func uniqueNames(columns []string) []string {
	names := make([]string, len(columns))
	seen := map[string]int{}
	for i, name := range columns {
		seen[name]++
		if n := seen[name]; n > 1 {
			name += "_" + strconv.Itoa(n)
		}
		names[i] = name
	}
	return names
}

// sqlRows reads database/sql's rows.
type sqlRows struct {
	rows  *sql.Rows
	types []*sql.ColumnType
	raw   []any // the current row
	ptrs  []any // pointers to raw, for Scan
}

func (r *sqlRows) names() ([]string, error) {
	types, err := r.rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	r.types = types
	names := make([]string, len(types))
	r.raw, r.ptrs = make([]any, len(types)), make([]any, len(types))
	for i, t := range types {
		names[i] = t.Name()
		r.ptrs[i] = &r.raw[i]
	}
	return names, nil
}

func (r *sqlRows) dbType(i int) string { return r.types[i].DatabaseTypeName() }

func (r *sqlRows) next() (bool, error) {
	if !r.rows.Next() {
		return false, r.rows.Err()
	}
	return true, r.rows.Scan(r.ptrs...)
}

func (r *sqlRows) value(i int) any { return r.raw[i] }

var (
	_ rowReader = (*sqlRows)(nil)
	_ rowReader = (*cachedRows)(nil)
)
