package lint

import (
	"os"
	"strings"
	"testing"
)

// TestRulesDocumented: the README's table lists every rule, as declared,
// and no other.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "### Description lint\n")
	section, _, _ = strings.Cut(section, "\n#")
	var rows []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	if len(rows) != len(Rules) {
		t.Errorf("the README lists %d rules, Rules has %d", len(rows), len(Rules))
	}
	for i, r := range Rules {
		want := "| `" + r.Name + "` | " + r.Says + " |"
		if i >= len(rows) || rows[i] != want {
			t.Errorf("README row %d: want %q", i, want)
		}
	}
}
