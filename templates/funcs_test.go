package templates

import (
	"maps"
	"regexp"
	"strings"
	"testing"

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
