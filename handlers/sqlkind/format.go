package sqlkind

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func textContent(s string) []mcp.Content {
	return []mcp.Content{&mcp.TextContent{Text: s}}
}

// text renders one statement's result in the handler's format, with a
// closing line that counts the rows and says when they were truncated.
func (h *handler) text(r *stepResult) string {
	if r.exec {
		return fmt.Sprintf("%d rows affected", r.affected)
	}
	var body string
	switch h.format {
	case "csv":
		body = formatCSV(r)
	case "json":
		body = formatRowsJSON(r) + "\n"
	default:
		body = formatTable(r)
	}
	return body + h.footer(r)
}

func (h *handler) footer(r *stepResult) string {
	n := len(r.rows)
	s := fmt.Sprintf("(%d rows)", n)
	if n == 1 {
		s = "(1 row)"
	}
	if r.truncated {
		s = fmt.Sprintf("(truncated: showing the first %d rows; there are more. Narrow the query or raise max_rows.)", n)
	}
	return s
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

// formatTable aligns the columns:
//
//	id | name
//	---+------
//	1  | Alice
func formatTable(r *stepResult) string {
	widths := make([]int, len(r.columns))
	cells := make([][]string, len(r.rows))
	for j, c := range r.columns {
		widths[j] = utf8.RuneCountInString(c)
	}
	for i, row := range r.rows {
		cells[i] = make([]string, len(row))
		for j, v := range row {
			cells[i][j] = cell(v)
			widths[j] = max(widths[j], utf8.RuneCountInString(cells[i][j]))
		}
	}
	var b strings.Builder
	line := func(vals []string) {
		for j, v := range vals {
			if j > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(v)
			if j < len(vals)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(v)))
			}
		}
		b.WriteByte('\n')
	}
	line(r.columns)
	for j, w := range widths {
		if j > 0 {
			b.WriteString("-+-")
		}
		b.WriteString(strings.Repeat("-", w))
	}
	b.WriteByte('\n')
	for _, row := range cells {
		line(row)
	}
	return b.String()
}

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
