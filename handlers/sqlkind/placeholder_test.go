package sqlkind

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTranslate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		dialect *dialect
		in      string
		want    string
		binds   []string
	}{
		{"sqlite", sqliteDialect, "SELECT * FROM t WHERE a = :a AND b = :b", "SELECT * FROM t WHERE a = ? AND b = ?", []string{"a", "b"}},
		{"mysql repeats", mysqlDialect, "SELECT :a, :b, :a", "SELECT ?, ?, ?", []string{"a", "b", "a"}},
		{"postgres numbers once", postgresDialect, "SELECT :a, :b, :a", "SELECT $1, $2, $1", []string{"a", "b"}},
		{"string literal", sqliteDialect, "SELECT ':a', 'it''s :b', :c", "SELECT ':a', 'it''s :b', ?", []string{"c"}},
		{"quoted identifier", sqliteDialect, `SELECT "x"":y" FROM t WHERE z = :z`, `SELECT "x"":y" FROM t WHERE z = ?`, []string{"z"}},
		{"backtick", mysqlDialect, "SELECT `a:b` FROM t WHERE c = :c", "SELECT `a:b` FROM t WHERE c = ?", []string{"c"}},
		{"brackets", sqliteDialect, "SELECT [a:b] FROM t WHERE c = :c", "SELECT [a:b] FROM t WHERE c = ?", []string{"c"}},
		{"line comment", sqliteDialect, "SELECT 1 -- :a\nWHERE x = :x", "SELECT 1 -- :a\nWHERE x = ?", []string{"x"}},
		{"hash comment", mysqlDialect, "SELECT 1 # :a\nWHERE x = :x", "SELECT 1 # :a\nWHERE x = ?", []string{"x"}},
		{"block comment", postgresDialect, "SELECT /* :a /* :b */ :c */ :x", "SELECT /* :a /* :b */ :c */ $1", []string{"x"}},
		{"cast", postgresDialect, "SELECT :a::int, x::text", "SELECT $1::int, x::text", []string{"a"}},
		{"slice", postgresDialect, "SELECT arr[1:n], arr[lo:hi] FROM t WHERE a = :a", "SELECT arr[1:n], arr[lo:hi] FROM t WHERE a = $1", []string{"a"}},
		{"dollar quotes", postgresDialect, "SELECT $$ :a $$, $q$ :b $q$, :c", "SELECT $$ :a $$, $q$ :b $q$, $1", []string{"c"}},
		{"escape string", postgresDialect, `SELECT E'\' :a', :b`, `SELECT E'\' :a', $1`, []string{"b"}},
		{"mysql backslash", mysqlDialect, `SELECT '\' :a', "\" :b", :c`, `SELECT '\' :a', "\" :b", ?`, []string{"c"}},
		{"assignment", mysqlDialect, "SET @x := :v", "SET @x := ?", []string{"v"}},
		{"postgres question mark", postgresDialect, "SELECT j ? 'k' FROM t WHERE a = :a", "SELECT j ? 'k' FROM t WHERE a = $1", []string{"a"}},
		{"unicode", sqliteDialect, "SELECT 'é :a', :ü_x, :b", "SELECT 'é :a', :ü_x, ?", []string{"b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, err := translate(tt.in, tt.dialect.syntax)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, st.text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.binds, st.binds); diff != "" {
				t.Errorf("binds (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTranslateErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		dialect *dialect
		in      string
		want    string
		off     int // where the error points, in bytes
	}{
		{"bare question mark", sqliteDialect, "SELECT * FROM t WHERE a = ?", "a bare ?", 26},
		{"numbered", postgresDialect, "SELECT *\nFROM t WHERE a = $1", "$1 is a positional placeholder", 26},
		{"unterminated string", sqliteDialect, "SELECT 'abc", "unterminated string literal", 7},
		{"unterminated identifier", sqliteDialect, `SELECT "abc`, "unterminated quoted identifier", 7},
		{"unterminated comment", sqliteDialect, "SELECT /* abc", "unterminated /* comment", 7},
		{"unterminated dollar", postgresDialect, "SELECT $x$ abc", "unterminated $x$ string", 7},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := translate(tt.in, tt.dialect.syntax)
			var se *syntaxError
			if !errors.As(err, &se) || !strings.Contains(se.msg, tt.want) || se.off != tt.off {
				t.Errorf("got %v (at byte %d), want an error containing %q at byte %d", err, se.off, tt.want, tt.off)
			}
		})
	}
}

func TestPlaceholderPositions(t *testing.T) {
	t.Parallel()
	st, err := translate("SELECT :a,\n  :bb", sqliteSyntax())
	if err != nil {
		t.Fatal(err)
	}
	want := []placeholder{{"a", 7}, {"bb", 13}}
	if diff := cmp.Diff(want, st.found, cmp.AllowUnexported(placeholder{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func sqliteSyntax() syntax { return sqliteDialect.syntax }
