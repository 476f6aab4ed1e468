package build

import (
	"strings"
	"testing"
)

func TestToolNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name            string
		valid, portable bool
	}{
		{"get_weather", true, true},
		{"a-b_C9", true, true},
		{"ns.tool", true, false},
		{strings.Repeat("x", 64), true, true},
		{strings.Repeat("x", 65), true, false},
		{strings.Repeat("x", 128), true, false},
		{strings.Repeat("x", 129), false, false},
		{"", false, false},
		{"two words", false, false},
		{"naïve", false, false},
		{"a/b", false, false},
		{"tool\n", false, false},
		{"tool\x00", false, false},
	} {
		if got := validToolName(c.name); got != c.valid {
			t.Errorf("validToolName(%q) = %v, want %v", c.name, got, c.valid)
		}
		if got := portableName(c.name); got != c.portable {
			t.Errorf("portableName(%q) = %v, want %v", c.name, got, c.portable)
		}
	}
}
