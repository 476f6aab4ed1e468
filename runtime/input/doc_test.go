package input

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/spec"
)

// TestArgsDocIsTheJSONRoundTrip checks that argsDoc builds what decoding
// argsSchema's JSON gives, and leaves to the JSON what it cannot build.
func TestArgsDocIsTheJSONRoundTrip(t *testing.T) {
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, 0.1, 1e-7, 1e20, 1e21, 1e300, -1e300,
		math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 2, -(1 << 62), 123456789012345678, 1e19, 3e-300, math.MaxFloat64, math.SmallestNonzeroFloat64}
	values := []any{nil, true, false, "", "<a & b>", "line\u2028sep", "é", int64(0), int64(math.MaxInt64),
		int64(math.MinInt64), []any{}, []any{int64(1), "x", nil, 2.5, []any{1e21}},
		map[string]any{}, map[string]any{"a": map[string]any{"b": []any{1.0, "<"}}, "": nil}}
	for _, x := range floats {
		values = append(values, x)
	}
	var cases [][]*spec.Arg
	cases = append(cases, nil, []*spec.Arg{})
	for _, v := range values {
		cases = append(cases, []*spec.Arg{{Name: "d", Default: v}}, []*spec.Arg{{Name: "e", Enum: []any{v, v}}})
	}
	for _, x := range floats {
		cases = append(cases, []*spec.Arg{{Name: "n", Type: "number", Minimum: ptr(x), Maximum: ptr(-x)}})
	}
	cases = append(cases,
		[]*spec.Arg{{Name: "id", Type: "integer", Required: true, Minimum: ptr(1.0)},
			{Name: "q", Description: "What to look for", MaxLength: ptr(200), MinLength: ptr(0), Pattern: `^\w+$`},
			{Name: "mode", Enum: []any{"fast", "full"}, Default: "fast", Header: "X-Mode"}},
		[]*spec.Arg{{Name: "tags", Type: "array"}, {Name: "ids", Type: "array", Items: "integer", Required: true}},
		[]*spec.Arg{{Name: "dup", Required: true}, {Name: "dup", Type: "integer", Required: true}},
		[]*spec.Arg{{Name: "o", Type: "object", Default: map[string]any{"k": int64(1)}}})
	for i, args := range cases {
		raw := argsSchema(args)
		want, err := DecodeJSON(raw)
		if err != nil {
			t.Fatalf("case %d: %s: %v", i, raw, err)
		}
		got, ok := argsDoc(args)
		if !ok {
			t.Errorf("case %d: %s: argsDoc left it to the JSON", i, raw)
			continue
		}
		if diff := cmp.Diff(want, any(got)); diff != "" {
			t.Errorf("case %d: %s: (-want +got)\n%s", i, raw, diff)
		}
	}
}

// TestArgsDocLeavesToJSON checks that argsDoc refuses the values JSON
// changes or refuses, and that the schema compiles from the JSON then.
func TestArgsDocLeavesToJSON(t *testing.T) {
	bad := "a\xffb"
	for i, a := range []*spec.Arg{
		{Name: bad}, {Name: "d", Description: bad}, {Name: "d", Default: bad}, {Name: "p", Pattern: bad},
		{Name: "e", Enum: []any{"ok", bad}}, {Name: "m", Default: map[string]any{bad: int64(1)}},
		{Name: "n", Default: math.NaN()}, {Name: "i", Default: math.Inf(1)}, {Name: "h", Header: bad},
		{Name: "t", Default: int32(1)},
	} {
		if _, ok := argsDoc([]*spec.Arg{a}); ok {
			t.Errorf("case %d: argsDoc built a doc for %+v", i, a)
		}
		raw := argsSchema([]*spec.Arg{a})
		want, wantErr := NewCompiler().CompileLazily("t", raw)
		got, gotErr := NewCompiler().CompileArgs("t", []*spec.Arg{a})
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("case %d: error %v, want %v", i, gotErr, wantErr)
			continue
		}
		if wantErr == nil {
			if diff := cmp.Diff(want.doc, got.doc); diff != "" {
				t.Errorf("case %d: (-want +got)\n%s", i, diff)
			}
		}
	}
}

// ptr returns a pointer to v, for the optional settings of an argument.
func ptr[T any](v T) *T { return &v }
