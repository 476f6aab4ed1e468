package templates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAndExecute(t *testing.T) {
	t.Parallel()
	roots := map[string][]string{"args": {"name", "tags"}, "result": nil}
	data := map[string]any{"args": map[string]any{"name": "ada", "tags": []any{"x", "y"}}, "result": map[string]any{"n": 2}}
	for _, tt := range []struct{ name, text, want string }{
		{"literal", "plain text", "plain text"},
		{"field", "Hi {{ .args.name }}", "Hi ada"},
		{"sprig", `{{ .args.name | upper | quote }}`, `"ADA"`},
		{"sprig in a pipeline with a builtin", `{{ len .args.tags }} {{ join "," .args.tags }}`, "2 x,y"},
		{"nested function calls", `{{ printf "%s-%s" (upper .args.name) (repeat 2 "z") }}`, "ADA-zz"},
		{"range and if", `{{ range .args.tags }}[{{ . }}]{{ end }}{{ if eq .args.name "ada" }}!{{ end }}`, "[x][y]!"},
		{"define and template", `{{ define "x" }}<{{ . | title }}>{{ end }}{{ template "x" .args.name }}`, "<Ada>"},
		{"a function named like a word in the text", `upper: {{ "a" | upper }}`, "upper: A"},
		{"any field below result", "{{ .result.n }}", "2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tpl, perr := Parse("t", tt.text, roots)
			if perr != nil {
				t.Fatalf("Parse: %v", perr)
			}
			got, err := tpl.Execute(data)
			if err != nil || got != tt.want {
				t.Errorf("Execute = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	roots := map[string][]string{"args": {"name"}}
	for _, tt := range []struct {
		name, text string
		want       Error
	}{
		{"unknown function", "Hi {{ nowUTC }}", Error{Line: 1, Col: 7, Msg: `function "nowUTC" not defined`}},
		{"environment", `{{ env "HOME" }}`, Error{Line: 1, Col: 4, Msg: `function "env" not defined`}},
		{"expandenv", `{{ expandenv "$HOME" }}`, Error{Line: 1, Col: 4, Msg: `function "expandenv" not defined`}},
		{"network", `{{ getHostByName "example.com" }}`, Error{Line: 1, Col: 4, Msg: `function "getHostByName" not defined`}},
		{"unknown root", "{{ .argz.name }}", Error{Line: 1, Col: 4, Msg: "unknown field .argz", Hint: `did you mean "args"?`}},
		{"unknown argument below", "{{ .args.nmae.x }}", Error{Line: 1, Col: 4, Msg: "unknown field .args.nmae", Hint: `did you mean "name"?`}},
		{"unknown argument", "a\n{{ .args.nmae }}", Error{Line: 2, Col: 4, Msg: "unknown field .args.nmae", Hint: `did you mean "name"?`}},
		{"unclosed", "{{ if .args.name }}x", Error{Line: 1, Msg: "unexpected EOF"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("t", tt.text, roots)
			if err == nil {
				t.Fatal("parsed")
			}
			if diff := cmp.Diff(tt.want, *err); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestExecuteErrors(t *testing.T) {
	t.Parallel()
	tpl, perr := Parse("t", "{{ .args.missing }}", map[string][]string{"args": nil})
	if perr != nil {
		t.Fatal(perr)
	}
	if _, err := tpl.Execute(map[string]any{"args": map[string]any{}}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing key rendered: %v", err)
	}
	big, _ := Parse("t", `{{ repeat 5000000 "x" }}`, nil)
	if _, err := big.Execute(nil); err == nil {
		t.Error("output beyond MaxOutput rendered")
	}
}

// TestSetNamespaces checks that templates parsed by one Set do not share
// their {{ define }}s.
func TestSetNamespaces(t *testing.T) {
	t.Parallel()
	s := NewSet()
	a, errA := s.Parse("a", `{{ define "row" }}A{{ end }}{{ template "row" }}`, nil)
	b, errB := s.Parse("b", `{{ define "row" }}B{{ end }}{{ template "row" }}`, nil)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	for _, tt := range []struct {
		tpl  *Template
		want string
	}{{a, "A"}, {b, "B"}} {
		if got, err := tt.tpl.Execute(nil); err != nil || got != tt.want {
			t.Errorf("got %q, %v; want %q", got, err, tt.want)
		}
	}
}
