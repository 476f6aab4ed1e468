package templates

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
)

// TestFuncsInFindsEveryWord checks funcsIn against the words a regular
// expression finds: names glued to digits, underscores and punctuation,
// at the start and the end of the text.
func TestFuncsInFindsEveryWord(t *testing.T) {
	t.Parallel()
	word := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	for _, text := range []string{
		"", "upper", "{{ upper .x }}", "{{upper}}", "{{ 9upper }}", "{{ upper9 }}", "{{ _upper }}",
		"{{ .a|upper|lower }}trim", "{{ (printf \"%s\" (b64enc .x)) }}é{{ quote }}", "{{ x.upper }}",
		"{{ toJson . }}{{- nospace -}}{{/* upper */}}repeat", "{{ 1upper2lower }}", "{{ default\tcoalesce\n}}",
	} {
		want := map[string]bool{}
		if strings.Contains(text, "{{") {
			for _, w := range word.FindAllString(text, -1) {
				if _, ok := funcs[w]; ok {
					want[w] = true
				}
			}
		}
		got := map[string]bool{}
		for name := range maps.Keys(funcsIn(text)) {
			got[name] = true
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: (-want +got)\n%s", text, diff)
		}
	}
}

// TestParseTextIsTemplateParse checks that parseText parses as
// Template.Parse does: the same builtin functions, the same errors, the
// same output.
func TestParseTextIsTemplateParse(t *testing.T) {
	t.Parallel()
	// text/template's documented functions, keywords and other words
	words := strings.Fields(`and call html index slice js len not or print printf println urlquery eq ge gt le lt ne
		nil true block break continue define else end if range template with undefinedFn`)
	names := slices.Concat(slices.Collect(maps.Keys(funcs)), slices.Collect(maps.Keys(builtinNames)), words)
	texts := []string{"", " ", "plain", "{{/* c */}}", "{{.x}", "{{end}}", `{{define "t"}}a{{end}}b`,
		`{{define "u"}}u{{end}}{{template "u"}}`, `{{if}}`, "{{.x | nosuch}}", "a\n{{len}}\n{{printf 1}}",
		`{{.x}}{{index . "x"}}{{.y}}`, `{{define "t"}}{{end}}b`}
	for _, name := range names {
		texts = append(texts, "{{ "+name+" }}", "{{ "+name+" 1 2 }}")
	}
	data := map[string]any{"x": "y"}
	for _, text := range texts {
		want, wantErr := template.New("t").Option("missingkey=error").Funcs(funcsIn(text)).Parse(text)
		got, gotErr := parseText(text)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
			t.Errorf("%q: error %v, want %v", text, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		if w, g := parsed(want), parsed(got); w != g {
			t.Errorf("%q: parsed as %q, want %q", text, g, w)
		}
		var w, g strings.Builder
		wantErr, gotErr = want.Execute(&w, data), got.Execute(&g, data)
		if !strings.Contains(text, "{{ ") && (w.String() != g.String() || fmt.Sprint(wantErr) != fmt.Sprint(gotErr)) {
			t.Errorf("%q: got %q, %v; want %q, %v", text, g.String(), gotErr, w.String(), wantErr)
		}
	}
}

// parsed renders the templates t defines, in order of name.
func parsed(t *template.Template) string {
	var out []string
	for _, d := range t.Templates() {
		out = append(out, d.Name()+": "+d.Tree.Root.String())
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// TestParseLiteral checks that a text without an action is not parsed, and
// renders as before: itself, or the output limit's error when it is over it.
func TestParseLiteral(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", MaxOutput+1)
	for _, tt := range []struct {
		text    string
		lit     bool
		wantErr bool
	}{{"", true, false}, {"plain } { text", true, false}, {"a {{ .x }}", false, false}, {long, false, true}} {
		tmpl, perr := Parse("t", tt.text, map[string][]string{"x": nil})
		if perr != nil {
			t.Fatalf("%.20q: %v", tt.text, perr)
		}
		if tmpl.lit != tt.lit {
			t.Errorf("%.20q: literal %v, want %v", tt.text, tmpl.lit, tt.lit)
		}
		out, err := tmpl.Execute(map[string]any{"x": 1})
		if (err != nil) != tt.wantErr || err == nil && tt.lit && out != tt.text {
			t.Errorf("%.20q: got %.20q, %v", tt.text, out, err)
		}
	}
}

// TestSetParsesATextOnce checks that a Set shares the template of a text
// parsed again for the same roots, and checks it anew for other roots.
func TestSetParsesATextOnce(t *testing.T) {
	t.Parallel()
	s := NewSet()
	const text = "{{ .args.id }}"
	first, err := s.Parse("a", text, map[string][]string{"args": {"id", "q"}, "result": nil})
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Parse("b", text, map[string][]string{"result": nil, "args": {"q", "id"}}); again != first {
		t.Error("the same text and roots were parsed again")
	}
	for _, tt := range []struct {
		name    string
		roots   map[string][]string
		wantErr bool
	}{
		{"other names", map[string][]string{"args": {"q"}, "result": nil}, true},
		{"no names", map[string][]string{"args": {}, "result": nil}, true},
		{"any name", map[string][]string{"args": nil, "result": nil}, false},
		{"no args", map[string][]string{"result": nil}, true},
		{"same names, another root", map[string][]string{"args": {"id", "q"}}, false},
	} {
		got, err := s.Parse(tt.name, text, tt.roots)
		if (err != nil) != tt.wantErr || err == nil && got == first {
			t.Errorf("%s: got %p, %v; want an error: %v, and not the first template", tt.name, got, err, tt.wantErr)
		}
	}
}
