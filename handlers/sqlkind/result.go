package sqlkind

import (
	"bytes"
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
	columns   []string // named apart (uniqueNames)
	list      any      // columns as a []any, for structured content
	rows      [][]any
	truncated bool
	// keys are the raw key values of the last two rows read, for a keyset
	// page: its last row and the one after it (keys[1] is the latest).
	keys [2][]any
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
func (h *handler) converter(name, dbType string) converter {
	typ := strings.ToUpper(dbType)
	switch {
	case typ == "JSON" || typ == "JSONB" || slices.Contains(h.jsonCols, name):
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
	return map[string]any{"columns": r.list, "rows": rows, "row_count": int64(len(r.rows)), "truncated": r.truncated}
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
		return textResult(obj, formatJSON(obj)), nil
	}
	if len(results) == 1 {
		return textResult(results[0].structured(), h.text(results[0])), nil
	}
	list := make([]any, len(results))
	texts := make([]string, len(results))
	for i, r := range results {
		list[i] = r.structured()
		texts[i] = fmt.Sprintf("statement %d:\n%s", i+1, h.text(r))
	}
	return textResult(map[string]any{"results": list}, strings.Join(texts, "\n\n")), nil
}
