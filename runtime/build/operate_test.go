package build

import "testing"

// TestParseRate: rates are read with spaces and fractions.
func TestParseRate(t *testing.T) {
	t.Parallel()
	for _, rate := range []string{"10/s", "1.5/m", " 3 / h "} {
		if _, _, ok := parseRate(rate); !ok {
			t.Errorf("parseRate(%q) refused", rate)
		}
	}
}
