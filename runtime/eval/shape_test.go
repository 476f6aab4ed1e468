package eval

import (
	"testing"
)

// TestShape: what a value is known to yield before any call, and nothing
// where a name could be absent or its type is not known.
func TestShape(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`hello`, "string"},
		{`42`, "integer"},
		{`4.5`, "number"},
		{`true`, "boolean"},
		{`null`, "null"},
		{`"a ${{ args.name }}"`, "string"},
		{`"${{ args.name }}"`, ""}, // an optional argument may be absent
		{`"${{ len(args.tags) }}"`, "integer"},
		{`"${{ args.limit > 2 }}"`, "boolean"},
		{`"${{ [1, 2] }}"`, "array"},
		{`"${{ {a: 1} }}"`, "object"},
		{`"${{ args.flag ? 'x' : 'y' }}"`, "string"},
		{`"${{ args.flag ? 'x' : 1 }}"`, ""},
		{`"${{ upper(args.name) }}"`, "string"},
		{`[a, b]`, "array"},
		{`{a: 1, b: "${{ args.name }}"}`, "object"},
	} {
		v, errs := Compile(node(t, tt.src), env, Options{})
		if len(errs) > 0 {
			t.Fatalf("%s: %v", tt.src, errs)
		}
		got := ""
		if s := v.Shape(); s != nil {
			got = s.Type
		}
		if got != tt.want {
			t.Errorf("Shape(%s) = %q, want %q", tt.src, got, tt.want)
		}
	}
	v, _ := Compile(node(t, `{a: 1, b: "${{ args.name }}"}`), env, Options{})
	s := v.Shape()
	if !s.Closed || s.Props["a"].Type != "integer" || s.Props["b"] != nil || len(s.Props) != 2 {
		t.Errorf("mapping shape = %+v", s)
	}
	if ms := s.Mismatches(map[string]any{"type": "object", "required": []any{"a", "c"}}); len(ms) != 1 || ms[0].Path != ".required[1]" {
		t.Errorf("mismatches = %+v", ms)
	}
	if ms := s.Mismatches(map[string]any{"anyOf": []any{map[string]any{"type": "string"}}}); len(ms) != 0 {
		t.Errorf("a composed schema is not checked; got %+v", ms)
	}
}
