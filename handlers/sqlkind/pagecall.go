package sqlkind

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/sqlkind/sqlcursor"
	"github.com/mcpgen/mcpgen/runtime/eval"
)

// pageCall is one call of a paged tool.
type pageCall struct {
	limit  int
	offset int64
	digest []byte
}

// start reads the call's cursor and limit into the values bound to the
// pager's placeholders, and returns the handler that runs the page: the
// first page's, or the next pages'.
func (h *handler) startPage(args map[string]any, bound []any) (*pageCall, *handler, error) {
	p := h.page
	pc := &pageCall{limit: p.size, digest: sqlcursor.Digest(bound[:p.params])}
	if n, ok := args["limit"].(int64); ok && p.max > 0 {
		if n < 1 || n > int64(p.max) {
			return nil, nil, fmt.Errorf("limit: must be from 1 to %d", p.max)
		}
		pc.limit = int(n)
	}
	bound[p.params] = int64(pc.limit + 1) // one more tells whether there is a next page
	s, _ := args["cursor"].(string)
	if s == "" {
		if p.keys == nil {
			bound[p.params+1] = int64(0)
		}
		return pc, h, nil
	}
	c, err := p.decode(pc.digest, s)
	if err != nil {
		return nil, nil, err
	}
	if p.keys == nil {
		pc.offset = *c.Offset
		bound[p.params+1] = pc.offset
		return pc, h, nil
	}
	for i, k := range c.Keys {
		if bound[p.params+1+i], err = k.Value(); err != nil {
			return nil, nil, err
		}
	}
	return pc, p.next, nil
}

// finishPage cuts the row fetched to know whether there is a next page,
// and returns the cursor of that page ("" for none).
func (h *handler) finishPage(pc *pageCall, r *stepResult) (string, error) {
	if len(r.rows) <= pc.limit {
		return "", nil
	}
	r.rows = r.rows[:pc.limit]
	p := h.page
	if p.keys == nil {
		next := pc.offset + int64(pc.limit)
		return p.codec.Encode(pc.digest, sqlcursor.Payload{Offset: &next}), nil
	}
	// the query read limit+1 rows: the last two are the page's last and
	// the one after it
	last, after := cursorKeys(r.keys[0]), cursorKeys(r.keys[1])
	for i, k := range last {
		if k[0] == nil {
			return "", fmt.Errorf("page.keyset: column %s is null in row %d; keyset columns must never be null "+
				"(pick others, or COALESCE it in the query)", p.keys[i], pc.limit)
		}
	}
	if slices.Equal(last, after) {
		return "", fmt.Errorf("page.keyset: rows %d and %d have the same %s; the keyset must tell every row apart: "+
			"end it with a unique column such as the primary key", pc.limit, pc.limit+1, strings.Join(p.keys, ", "))
	}
	return p.codec.Encode(pc.digest, sqlcursor.Payload{Keys: last}), nil
}

// keyValues records the raw key values of the current row, in keyset
// order, as the latest of last (the two buffers are reused row after
// row); a key the result does not have is an error.
func (c *columnSet) keyValues(p *pager, rows rowReader, last *[2][]any) error {
	keys := last[0]
	if keys == nil {
		keys = make([]any, len(p.keys))
	}
	for i, at := range c.keyAt {
		if at < 0 {
			return fmt.Errorf("page.keyset: %s is not a column of the result (its columns: %s)", p.keys[i],
				strings.Join(c.names, ", "))
		}
		v := rows.value(at)
		if b, ok := v.([]byte); ok {
			if at < len(c.convs) && c.convs[at] != binaryConv {
				v = string(b) // text the driver reads as bytes (MySQL) compares as text
			} else {
				v = slices.Clone(b) // valid until the next row only
			}
		}
		keys[i] = v
	}
	last[0], last[1] = last[1], keys
	return nil
}

// cursorKeys converts raw key values for a cursor.
func cursorKeys(raw []any) []sqlcursor.Key {
	keys := make([]sqlcursor.Key, len(raw))
	for i, v := range raw {
		keys[i], _ = sqlcursor.KeyOf(v)
	}
	return keys
}

// decode checks a cursor: one this pager made for a call with the same
// parameters, of its kind (an offset, or a value per key).
func (p *pager) decode(digest []byte, cursor string) (*sqlcursor.Payload, error) {
	c, err := p.codec.Decode(digest, cursor)
	if err != nil {
		return nil, err
	}
	if p.keys == nil && (c.Offset == nil || *c.Offset < 0 || c.Keys != nil) ||
		p.keys != nil && (c.Offset != nil || len(c.Keys) != len(p.keys)) {
		return nil, sqlcursor.ErrCursor
	}
	return c, nil
}

// keyColumns finds the keyset's columns among names (-1 for missing):
// the hidden ones at the end, or those of the result.
func keyColumns(p *pager, names []string) []int {
	if p == nil || p.keys == nil {
		return nil
	}
	at := make([]int, len(p.keys))
	for i, k := range p.keys {
		if p.hidden {
			at[i] = len(names) - len(p.keys) + i
		} else if at[i] = slices.Index(names, k); at[i] < 0 { // MySQL's names are case-insensitive
			at[i] = slices.IndexFunc(names, func(n string) bool { return strings.EqualFold(n, k) })
		}
	}
	return at
}

// shown are the columns of the result among names: all of them but the
// hidden keys.
func (p *pager) shown(names []string) []string {
	if p == nil || !p.hidden || len(names) < len(p.keys) {
		return names
	}
	return names[:len(names)-len(p.keys)]
}

// pageResult adds nextCursor to a page's result.
func pageResult(res *handlers.Result, next string) *handlers.Result {
	if next == "" {
		return res
	}
	m := maps.Clone(handlers.Object(res.Structured))
	m["nextCursor"] = next
	res.Structured = m
	res.Content[0].Text += "\nnextCursor: " + next + " (pass it as cursor for the next page)"
	return res
}

// ResultShape is the shape of a paged tool's result, nextCursor
// included, so that an output schema that forbids it is found at load.
func (h *handler) ResultShape() *eval.Shape {
	if h.page == nil {
		return nil
	}
	return &eval.Shape{Type: "object", Closed: true, Props: map[string]*eval.Shape{
		"columns": {Type: "array"}, "rows": {Type: "array", Items: &eval.Shape{Type: "object"}},
		"row_count": {Type: "integer"}, "truncated": {Type: "boolean"}, "nextCursor": {Type: "string"},
	}}
}

var _ handlers.ResultShaper = (*handler)(nil)
