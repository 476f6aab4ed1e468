package mask

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

func TestMaskerCopiesWhatItChanges(t *testing.T) {
	t.Parallel()
	m := NewMasker(credentials("tok-123456", "abc")) // "abc" is too short to mask
	shared := map[string]any{"a": []any{"x tok-123456"}, "b": "abc", "c": map[string]any{"d": "plain"}}
	got, changed := m.value(shared)
	if !changed {
		t.Fatal("nothing masked")
	}
	want := map[string]any{"a": []any{"x ****"}, "b": "abc", "c": map[string]any{"d": "plain"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("masked (-want +got):\n%s", diff)
	}
	if shared["a"].([]any)[0] != "x tok-123456" {
		t.Error("the original value was changed")
	}
	type row struct{ Token string }
	if got, _ := m.value([]row{{"tok-123456"}}); !cmp.Equal(got, []any{map[string]any{"Token": "****"}}) {
		t.Errorf("typed value: %#v", got)
	}
	if NewMasker(credentials("abc", "")) != nil {
		t.Error("a Masker for nothing to mask")
	}
}

// credentials returns what the secrets policy masks in results when the
// values come from secret-named variables.
func credentials(values ...string) []string {
	var s load.Secrets
	for _, v := range values {
		s.Add("API_TOKEN", v)
	}
	return s.Credentials()
}
