package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadKeysOfSmallAndLargeMappings checks that duplicate, merge and
// missing required keys are reported alike in a mapping of a few keys and
// in one of many (keyIndex looks back over the first, and keeps a map of
// the second).
func TestLoadKeysOfSmallAndLargeMappings(t *testing.T) {
	t.Parallel()
	render := func(extra int) []string {
		var b strings.Builder
		b.WriteString("version: 1\ntools:\n  - description: d\n    '<<': quoted\n    <<: {a: 1}\n")
		for i := range extra {
			fmt.Fprintf(&b, "    x%d: 1\n", i)
		}
		b.WriteString("    description: again\n    <<: {b: 2}\n    content: [{text: t}]\n")
		_, ds := loadString(t, b.String(), nil)
		var out []string
		for _, d := range ds {
			if !strings.Contains(d.Message, `unknown field "x`) {
				if d.Line > 5 { // below the extra keys
					d.Line -= extra
				}
				out = append(out, d.String())
			}
		}
		return out
	}
	small, large := render(0), render(2*smallMapping)
	if diff := cmp.Diff(small, large); diff != "" {
		t.Errorf("a large mapping's keys are reported differently (-small +large):\n%s", diff)
	}
	for _, want := range []string{`duplicate key "description"; first defined at line 3`, "merge keys (<<) are not supported",
		`missing required field "name"`, `unknown field "<<"`} {
		if !strings.Contains(strings.Join(small, "\n"), want) {
			t.Errorf("no diagnostic says %q:\n%s", want, strings.Join(small, "\n"))
		}
	}
}
