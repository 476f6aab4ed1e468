package sqlkind

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// stepResult is what one statement produced.
type stepResult struct {
	exec      bool
	affected  int64
	columns   []string
	rows      [][]any
	truncated bool
}

// readRows reads at most h.maxRows rows, converted to JSON values.
func (h *handler) readRows(rows *sql.Rows) (*stepResult, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	r := &stepResult{columns: uniqueNames(types)}
	convs := make([]converter, len(types))
	for i, t := range types {
		convs[i] = h.converter(t)
	}
	raw := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if len(r.rows) == h.maxRows {
			r.truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]any, len(raw))
		for i, v := range raw {
			row[i] = convs[i].convert(v)
		}
		r.rows = append(r.rows, row)
	}
	return r, rows.Err()
}

// uniqueNames names the columns, suffixing repeats (id, id_2) so that every
// value of a row object survives a join.
func uniqueNames(types []*sql.ColumnType) []string {
	names := make([]string, len(types))
	seen := map[string]int{}
	for i, t := range types {
		name := t.Name()
		seen[name]++
		if n := seen[name]; n > 1 {
			name += "_" + strconv.Itoa(n)
		}
		names[i] = name
	}
	return names
}

// converter maps one column's driver values to JSON values. It is a value,
// not a closure, so that reading rows allocates nothing per column for it.
type converter uint8

const (
	textConv converter = iota
	binaryConv
	jsonConv
	decimalConv
	dateConv
)

// converter picks the mapping for a column from its database type.
func (h *handler) converter(t *sql.ColumnType) converter {
	typ := strings.ToUpper(t.DatabaseTypeName())
	switch {
	case typ == "JSON" || typ == "JSONB" || slices.Contains(h.jsonCols, t.Name()):
		return jsonConv
	case strings.HasPrefix(typ, "DECIMAL") || strings.HasPrefix(typ, "NUMERIC"):
		return decimalConv
	case typ == "DATE":
		return dateConv
	case h.dialect == sqliteDialect || strings.Contains(typ, "BLOB") ||
		strings.Contains(typ, "BINARY") || typ == "BYTEA":
		return binaryConv
	}
	return textConv
}

// convert maps one value.
func (c converter) convert(v any) any {
	switch c {
	case jsonConv:
		return jsonValue(v)
	case decimalConv:
		return decimalValue(v)
	case dateConv:
		return timeValue(v, time.DateOnly)
	}
	return plainValue(v, c == binaryConv)
}

// plainValue maps the values drivers return: integers and floats stay
// numbers (NaN and infinities become strings), times are RFC 3339, bytes are
// base64 when the column is binary and text otherwise.
func plainValue(v any, binary bool) any {
	switch v := v.(type) {
	case nil, string, bool, int64:
		return v
	case []byte:
		if binary {
			return base64.StdEncoding.EncodeToString(v)
		}
		return string(v)
	case float64:
		return floatValue(v)
	case float32:
		return floatValue(float64(v))
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v)
		}
		return json.Number(strconv.FormatUint(v, 10))
	case time.Time:
		return timeValue(v, time.RFC3339Nano)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

func floatValue(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}

func timeValue(v any, layout string) any {
	if t, ok := v.(time.Time); ok {
		return t.Format(layout)
	}
	return plainValue(v, false)
}

// decimalValue keeps every digit of a decimal by returning it as a string.
func decimalValue(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case []byte:
		return string(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return fmt.Sprint(plainValue(v, false))
}

// jsonValue decodes a JSON column; numbers keep every digit. Text that is
// not JSON stays text.
func jsonValue(v any) any {
	var text []byte
	switch v := v.(type) {
	case nil:
		return nil
	case []byte:
		text = v
	case string:
		text = []byte(v)
	default:
		return plainValue(v, false)
	}
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil || d.More() {
		return string(text)
	}
	return x
}

// structured is the result as data: rows as objects keyed by column.
func (r *stepResult) structured() map[string]any {
	if r.exec {
		return map[string]any{"rows_affected": r.affected}
	}
	rows := make([]any, len(r.rows))
	for i := range r.rows {
		rows[i] = r.object(i)
	}
	cols := make([]any, len(r.columns))
	for i, c := range r.columns {
		cols[i] = c
	}
	return map[string]any{"columns": cols, "rows": rows, "row_count": int64(len(r.rows)), "truncated": r.truncated}
}

func (r *stepResult) object(i int) map[string]any {
	obj := make(map[string]any, len(r.columns))
	for j, c := range r.columns {
		obj[c] = r.rows[i][j]
	}
	return obj
}

// result assembles the tool result: structured content plus a text
// rendering in the configured format.
func (h *handler) result(results []*stepResult) (*handlers.Result, error) {
	if h.oneRow {
		r := results[0]
		if len(r.rows) == 0 {
			return nil, errNoRow
		}
		obj := r.object(0)
		return &handlers.Result{Structured: obj, Content: textContent(formatJSON(obj))}, nil
	}
	if len(results) == 1 {
		return &handlers.Result{Structured: results[0].structured(), Content: textContent(h.text(results[0]))}, nil
	}
	list := make([]any, len(results))
	texts := make([]string, len(results))
	for i, r := range results {
		list[i] = r.structured()
		texts[i] = fmt.Sprintf("statement %d:\n%s", i+1, h.text(r))
	}
	return &handlers.Result{Structured: map[string]any{"results": list},
		Content: textContent(strings.Join(texts, "\n\n"))}, nil
}
