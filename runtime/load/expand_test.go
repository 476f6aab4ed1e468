package load

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	t.Parallel()
	env := envMap(map[string]string{"HOST": "api.example.com", "EMPTY": "", "TOKEN": "t0ken-value"})
	for _, tt := range []struct {
		name, in, want string
		used           []string
		errs           []expandError
		skip           bool
	}{
		{name: "no reference", in: "plain text", want: "plain text"},
		{name: "variable", in: "https://${HOST}/v1", want: "https://api.example.com/v1", used: []string{"api.example.com"}},
		{name: "two variables", in: "${HOST}:${TOKEN}", want: "api.example.com:t0ken-value",
			used: []string{"api.example.com", "t0ken-value"}},
		{name: "default unused", in: "${HOST:-other}", want: "api.example.com", used: []string{"api.example.com"}},
		{name: "default for unset", in: "${NOPE:-fallback}", want: "fallback"},
		{name: "default for empty", in: "${EMPTY:-fallback}", want: "fallback"},
		{name: "empty default", in: "a${NOPE:-}b", want: "ab"},
		{name: "empty without default", in: "a${EMPTY}b", want: "ab"},
		{name: "escaped", in: "$${HOST}", want: "${HOST}"},
		{name: "escaped then variable", in: "$${HOST} ${HOST}", want: "${HOST} api.example.com", used: []string{"api.example.com"}},
		{name: "expression untouched", in: "${{ args.x }}", want: "${{ args.x }}"},
		{name: "escaped expression left for the compiler", in: "$${{ args.x }} ${HOST}", want: "$${{ args.x }} api.example.com",
			used: []string{"api.example.com"}},
		{name: "expression with braces", in: "id=${{ {'a': 1}.a }} ${HOST}", want: "id=${{ {'a': 1}.a }} api.example.com",
			used: []string{"api.example.com"}},
		{name: "unterminated expression", in: "${{ args.x", want: "${{ args.x"},
		{name: "dollar alone", in: "costs $5 and {x}", want: "costs $5 and {x}"},
		{name: "unset", in: "key=${API_KEY}", want: "key=",
			errs: []expandError{{4, "${API_KEY} is not set and has no default"}}},
		{name: "unset skipped", in: "key=${API_KEY}", want: "key=", skip: true},
		{name: "unset after text", in: "a ${HOST} b ${MISSING}", want: "a api.example.com b ", used: []string{"api.example.com"},
			errs: []expandError{{12, "${MISSING} is not set and has no default"}}},
		{name: "invalid name", in: "x ${BAD NAME} y", want: "x  y",
			errs: []expandError{{2, "invalid environment reference ${BAD NAME}: a name is letters, digits and _"}}},
		{name: "name starting with a digit", in: "${1X}", want: "",
			errs: []expandError{{0, "invalid environment reference ${1X}: a name is letters, digits and _"}}},
		{name: "empty name", in: "${}", want: "",
			errs: []expandError{{0, "invalid environment reference ${}: a name is letters, digits and _"}}},
		{name: "nested default used", in: "https://${NOPE:-${HOST}}/v1", want: "https://api.example.com/v1",
			used: []string{"api.example.com"}},
		{name: "nested default unused", in: "${TOKEN:-${MISSING}}", want: "t0ken-value", used: []string{"t0ken-value"}},
		{name: "nested twice", in: "${NOPE:-${EMPTY:-${HOST}}}!", want: "api.example.com!", used: []string{"api.example.com"}},
		{name: "nested default unset", in: "x=${NOPE:-${MISSING}}", want: "x=",
			errs: []expandError{{10, "${MISSING} is not set and has no default"}}},
		{name: "nested optional part left out", in: "/api${PREFIX:-${EMPTY}}/items", want: "/api/items"},
		{name: "optional part kept", in: "https://wiki${HOST:+/spaces/${HOST}}/api", want: "https://wiki/spaces/api.example.com/api",
			used: []string{"api.example.com", "api.example.com"}},
		{name: "optional part left out when empty", in: "https://wiki${EMPTY:+/spaces/${EMPTY}}/api", want: "https://wiki/api"},
		{name: "optional part left out when unset", in: "https://wiki${NOPE:+/spaces/${NOPE}}/api", want: "https://wiki/api"},
		{name: "optional part with an unset variable", in: "${HOST:+/${MISSING}}", want: "/",
			used: []string{"api.example.com"}, errs: []expandError{{9, "${MISSING} is not set and has no default"}}},
		{name: "unterminated nested", in: "${NOPE:-${HOST}", want: "${NOPE:-${HOST}",
			errs: []expandError{{0, "unterminated ${: expected }"}}},
		{name: "unterminated", in: "abc ${HOST", want: "abc ${HOST",
			errs: []expandError{{4, "unterminated ${: expected }"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, refs, errs := expand(tt.in, env, tt.skip)
			used := values(refs)
			if got != tt.want {
				t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if diff := cmp.Diff(tt.used, used); diff != "" {
				t.Errorf("used (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.errs, errs, cmp.AllowUnexported(expandError{})); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExpandPositions checks that a reference to an unset variable is
// reported at the exact column of its "$" in the file, whatever the scalar's
// style.
func TestExpandPositions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, line string
	}{
		{"plain", "  name: abc ${MISSING} def"},
		{"plain at start", "  name: ${MISSING}"},
		{"double quoted", `  name: "abc ${MISSING}"`},
		{"double quoted at start", `  name: "${MISSING}"`},
		{"single quoted", `  name: 'abc ${MISSING}'`},
		{"single quoted at start", `  name: '${MISSING}'`},
		{"after non-ASCII text", "  name: Données über ${MISSING}"},
		{"quoted after non-ASCII text", `  name: "Données über ${MISSING}"`},
		{"flow mapping", `  {name: "x ${MISSING}"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text := "version: 1\nserver:\n" + tt.line + "\n"
			_, ds := loadString(t, text, nil)
			if len(ds) != 1 {
				t.Fatalf("want 1 diagnostic, got:\n%v", ds)
			}
			line := strings.Split(text, "\n")[2]
			wantCol := len([]rune(line[:strings.Index(line, "${MISSING}")])) + 1
			want := Diagnostic{File: "mcpgen.yaml", Line: 3, Col: wantCol, Path: "server.name",
				Message: "${MISSING} is not set and has no default", Severity: Error}
			if diff := cmp.Diff(want, ds[0]); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", line, diff)
			}
		})
	}
}

// TestExpandPositionsUnknown checks that a reference the column cannot be
// computed for (after an escape sequence, on a continuation line) is
// reported at the start of its scalar, never beyond it, and that one in a
// literal block is reported at its own line and column.
func TestExpandPositionsUnknown(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, value string
		line, col   int
	}{
		{"plain on two lines", "abc\n    def ${MISSING}", 3, 9},
		{"double quoted on two lines", "\"abc\n    def ${MISSING}\"", 3, 9},
		{"escape before", `"a\tb ${MISSING}"`, 3, 9},
		{"single quote escape before", `'it''s ${MISSING}'`, 3, 9},
		{"tagged", "!!str x ${MISSING}", 3, 9},
		{"quote then line", "\"\n${MISSING}\"", 3, 9},
		// in a literal block, the line and column are known
		{"block, first line", "|\n    x ${MISSING}", 4, 7},
		{"block, third line", "|\n    a\n\n    bé ${MISSING}", 6, 8},
		{"block, kept indentation", "|2\n      x ${MISSING}", 4, 9},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text := "version: 1\nserver:\n  name: " + tt.value + "\n"
			_, ds := loadString(t, text, nil)
			if len(ds) != 1 || ds[0].Line != tt.line || ds[0].Col != tt.col || !strings.Contains(ds[0].Message, "${MISSING}") {
				t.Errorf("want one diagnostic at %d:%d, got:\n%v\n%s", tt.line, tt.col, ds, text)
			}
		})
	}
}
