package load

import "testing"

// TestPlaceString: a place writes out the path JoinPath and IndexPath
// would have built step by step, from any root, empty keys included.
func TestPlaceString(t *testing.T) {
	type step struct {
		key   string
		index int // a key step when < 0
	}
	for _, tt := range []struct {
		root  string
		steps []step
		want  string
	}{
		{"", nil, ""},
		{"", []step{{"tools", -1}, {"", 1}, {"handler", -1}, {"headers", -1}, {"X-Api-Key", -1}}, "tools[1].handler.headers.X-Api-Key"},
		{"", []step{{"", 0}, {"", 12}}, "[0][12]"},
		{"backends.db", []step{{"readiness", -1}}, "backends.db.readiness"},
		{"tools[3].handler", []step{{"", 2}, {"a.b", -1}}, "tools[3].handler[2].a.b"},
		{"r", []step{{"", -1}, {"x", -1}}, "r..x"},
		{"", []step{{"", -1}, {"x", -1}}, "x"},
	} {
		p, path := rootPlace(tt.root), tt.root
		for _, s := range tt.steps {
			var next place
			if s.index >= 0 {
				next, path = p.elem(s.index), IndexPath(path, s.index)
			} else {
				next, path = p.field(s.key), JoinPath(path, s.key)
			}
			p = &next
		}
		if got := p.String(); got != tt.want || got != path {
			t.Errorf("%q %v: got %q, want %q (step by step %q)", tt.root, tt.steps, got, tt.want, path)
		}
	}
}
