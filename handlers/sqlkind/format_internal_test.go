package sqlkind

import (
	"strings"
	"testing"
)

// TestWriteTablePadding pins the padding of the text table where a column
// is wider than one slice of the padding constants, and where a cell has
// runes of several bytes: the column is as wide as its widest cell in
// runes, the last column is not padded.
func TestWriteTablePadding(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 150)
	r := &stepResult{
		columns: []string{"id", "note", "city"},
		rows:    [][]any{{int64(1), long, "Zürich"}, {int64(22), "é", nil}},
	}
	var b strings.Builder
	writeTable(&b, r)
	want := "id | note" + strings.Repeat(" ", 146) + " | city\n" +
		"---+-" + strings.Repeat("-", 150) + "-+-------\n" +
		"1  | " + long + " | Zürich\n" +
		"22 | é" + strings.Repeat(" ", 149) + " | NULL\n"
	if got := b.String(); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}
