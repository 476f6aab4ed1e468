package sqlkind

import (
	"math"
	"strings"
	"testing"
)

// TestSettingText: the text each kind of value is bound as, and the
// values refused.
func TestSettingText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   any
		want string
	}{
		{"it's; a \"value\" \\", "it's; a \"value\" \\"}, {"", ""}, {true, "true"}, {int64(-42), "-42"}, {2.5, "2.5"},
		{1e21, "1000000000000000000000"}, {[]string{"tools:read", "admin"}, `["tools:read","admin"]`},
		{[]any{"a", int64(1)}, `["a",1]`}, {[]any{"\x00"}, `["\u0000"]`}, // JSON escapes it {map[string]any{"k": "v"}, `{"k":"v"}`},
	} {
		if got, err := settingText(tt.in); err != nil || got != tt.want {
			t.Errorf("settingText(%#v) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, tt := range []struct {
		in   any
		want string
	}{
		{nil, "does not provide it"}, {"a\x00b", "NUL"},
		{strings.Repeat("x", maxSettingValue+1), "more than the 65536"}, {math.Inf(1), "not a number"},
	} {
		if _, err := settingText(tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("settingText(%.20v): %v, want an error saying %q", tt.in, err, tt.want)
		}
	}
}
