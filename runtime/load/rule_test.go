package load

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// ruled is a config type with one group of each sort.
type ruled struct {
	A    *string `yaml:"a,omitempty" mcpgen:"exactly_one=ab"`
	B    *int    `yaml:"b,omitempty" mcpgen:"exactly_one=ab"`
	X    string  `yaml:"x,omitempty" mcpgen:"at_most_one=xyz"`
	Y    string  `yaml:"y,omitempty" mcpgen:"at_most_one=xyz"`
	Z    string  `yaml:"z,omitempty" mcpgen:"at_most_one=xyz"`
	Tail `yaml:",inline"`
}

// Tail is inlined: its field joins the group of the struct inlining it.
type Tail struct {
	C bool `yaml:"c,omitempty" mcpgen:"exactly_one=ab"`
}

// TestGroups checks the loader's one check of "exactly one of" and "at most
// one of" groups declared in struct tags.
func TestGroups(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"one of each", "{a: s, x: s}", nil},
		{"none of an optional group", "{b: 1}", nil},
		{"inlined field", "{c: true}", nil},
		{"none", "{x: s}", []string{"1:1: r: give exactly one of a, b, c"}},
		{"null is not given", "{a: ~}", []string{"1:1: r: give exactly one of a, b, c"}},
		{"two", "{a: s, c: true}", []string{"1:8: r.c: give exactly one of a, b, c; found a and c"}},
		{"three", "{a: s, b: 1, c: true}", []string{"1:8: r.b: give exactly one of a, b, c; found a, b and c"}},
		{"two optional", "{a: s, z: s, y: s}", []string{"1:14: r.y: give at most one of x, y, z; found y and z"}},
		{"null element", "[~]", []string{"1:2: r[0]: give exactly one of a, b, c"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(tt.in), &n); err != nil {
				t.Fatal(err)
			}
			f := &File{Path: "f.yaml"}
			var ds Diagnostics
			dc := &decoder{d: f.Reporter(&ds), raw: true}
			if tt.in[0] == '[' {
				var v []*ruled
				dc.decode(&n, reflectValue(&v), rootPlace("r"))
			} else {
				var v ruled
				dc.decode(&n, reflectValue(&v), rootPlace("r"))
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.String()[len("f.yaml:"):])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }
