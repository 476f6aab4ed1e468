package sqlkind

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
)

// textResult is a result of structured data and one text block. The
// result and its block are allocated together.
func textResult(structured any, s string) *handlers.Result {
	r := &struct {
		res  handlers.Result
		list [1]handlers.Content
	}{list: [1]handlers.Content{{Text: s}}}
	r.res = handlers.Result{Structured: structured, Content: r.list[:]}
	return &r.res
}

// text renders one statement's result in the handler's format, with a
// closing line that counts the rows and says when they were truncated.
func (h *handler) text(r *stepResult) string {
	if r.exec {
		return fmt.Sprintf("%d rows affected", r.affected)
	}
	var b strings.Builder
	switch h.format {
	case "csv":
		b.WriteString(formatCSV(r))
	case "json":
		b.WriteString(formatRowsJSON(r))
		b.WriteByte('\n')
	default:
		writeTable(&b, r)
	}
	writeFooter(&b, r)
	return b.String()
}

func writeFooter(b *strings.Builder, r *stepResult) {
	n := len(r.rows)
	switch {
	case r.truncated:
		b.WriteString("(truncated: showing the first ")
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" rows; there are more. Narrow the query or raise max_rows.)")
	case n == 1:
		b.WriteString("(1 row)")
	default:
		b.WriteByte('(')
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" rows)")
	}
}

// cell renders a value for text: NULL for null, JSON for lists and objects,
// escaped newlines so that a row stays on one line.
func cell(v any) string {
	var s string
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		s = v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64) // as fmt.Sprint writes it
	case bool:
		return strconv.FormatBool(v)
	case map[string]any, []any:
		s = formatJSON(v)
	default:
		s = fmt.Sprint(v)
	}
	return controlChars.Replace(s)
}

// controlChars escapes what would break a table row; a Replacer is safe for
// concurrent use.
var controlChars = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`)

// writeTable aligns the columns:
//
//	id | name
//	---+------
//	1  | Alice
func writeTable(b *strings.Builder, r *stepResult) {
	n := len(r.columns)
	widths := make([]int, n)
	cells := make([]string, len(r.rows)*n) // row by row
	for j, c := range r.columns {
		widths[j] = utf8.RuneCountInString(c)
	}
	size := 0
	for i, row := range r.rows {
		for j, v := range row {
			c := cell(v)
			cells[i*n+j] = c
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	for _, w := range widths {
		size += w + 3
	}
	b.Grow(size*(len(r.rows)+2) + 100) // the lines, and room for the footer
	writeLine(b, r.columns, widths)
	for j, w := range widths {
		if j > 0 {
			b.WriteString("-+-")
		}
		writeRepeat(b, dashes, w)
	}
	b.WriteByte('\n')
	for i := range r.rows {
		writeLine(b, cells[i*n:(i+1)*n], widths)
	}
}

// writeLine writes one line of a table: vals padded to widths, except the
// last.
func writeLine(b *strings.Builder, vals []string, widths []int) {
	for j, v := range vals {
		if j > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(v)
		if j < len(vals)-1 {
			writeRepeat(b, spaces, widths[j]-utf8.RuneCountInString(v))
		}
	}
	b.WriteByte('\n')
}

// writeRepeat writes n times the byte run is made of (spaces or dashes),
// a slice of run at a time rather than byte by byte.
func writeRepeat(b *strings.Builder, run string, n int) {
	for n > 0 {
		k := min(n, len(run))
		b.WriteString(run[:k])
		n -= k
	}
}

const (
	spaces = "                                                                "
	dashes = "----------------------------------------------------------------"
)

// formatCSV writes RFC 4180 CSV with a header; NULL is an empty field.
func formatCSV(r *stepResult) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(r.columns)
	for _, row := range r.rows {
		rec := make([]string, len(row))
		for j, v := range row {
			if v != nil {
				rec[j] = csvCell(v)
			}
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.String()
}

func csvCell(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case map[string]any, []any:
		return formatJSON(v)
	}
	return fmt.Sprint(v)
}

// formatRowsJSON writes the rows as a JSON array of objects whose keys
// keep the order of the columns.
func formatRowsJSON(r *stepResult) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, row := range r.rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for j, v := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(formatJSON(r.columns[j]))
			b.WriteByte(':')
			b.WriteString(formatJSON(v))
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return b.String()
}

// formatJSON is compact JSON without HTML escaping.
func formatJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
