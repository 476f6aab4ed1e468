package input

import (
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

func TestArgDefaultProblem(t *testing.T) {
	t.Parallel()
	f := func(x float64) *float64 { return &x }
	n := func(x int) *int { return &x }
	for _, tt := range []struct {
		name string
		arg  spec.Arg
		want string
	}{
		{"no default", spec.Arg{Type: "integer"}, ""},
		{"string by default", spec.Arg{Default: "x"}, ""},
		{"string wanted", spec.Arg{Default: int64(1)}, "got integer, want string"},
		{"integer", spec.Arg{Type: "integer", Default: int64(3)}, ""},
		{"whole float is an integer", spec.Arg{Type: "integer", Default: 3.0}, ""},
		{"fraction is not an integer", spec.Arg{Type: "integer", Default: 3.5}, "got number, want integer"},
		{"integer is a number", spec.Arg{Type: "number", Default: int64(3)}, ""},
		{"boolean", spec.Arg{Type: "boolean", Default: "true"}, "got string, want boolean"},
		{"enum", spec.Arg{Enum: []any{"a", "b"}, Default: "b"}, ""},
		{"not in enum", spec.Arg{Enum: []any{"a", "b"}, Default: "c"}, "want one of a, b"},
		{"numeric enum", spec.Arg{Type: "number", Enum: []any{int64(1), 2.5}, Default: 1.0}, ""},
		{"minimum", spec.Arg{Type: "integer", Minimum: f(1), Default: int64(0)}, "below the minimum 1"},
		{"maximum", spec.Arg{Type: "number", Maximum: f(1.5), Default: 2.0}, "above the maximum 1.5"},
		{"min length in characters", spec.Arg{MinLength: n(3), Default: "éé"}, "shorter than 3 characters"},
		{"max length", spec.Arg{MaxLength: n(1), Default: "ab"}, "longer than 1 characters"},
		{"pattern", spec.Arg{Pattern: "^[a-z]+$", Default: "A1"}, `does not match the pattern "^[a-z]+$"`},
		{"pattern anywhere", spec.Arg{Pattern: "[0-9]", Default: "a1b"}, ""},
		{"array items", spec.Arg{Type: "array", Items: "integer", Default: []any{int64(1), "x"}}, "item 1: got string, want integer"},
		{"array of strings by default", spec.Arg{Type: "array", Default: []any{"a"}}, ""},
		{"object", spec.Arg{Type: "object", Default: map[string]any{"a": int64(1)}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := tt.arg
			if got := ArgDefaultProblem(&a); got != tt.want {
				t.Errorf("ArgDefaultProblem = %q, want %q", got, tt.want)
			}
		})
	}
}
