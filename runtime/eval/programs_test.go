package eval

import (
	"testing"

	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
)

// A program is shared between environments of the same shape, and only
// between them: a different type, name or nesting compiles (and
// type-checks) anew.
func TestProgramsSharedByShape(t *testing.T) {
	args := func(m types.Map) types.Map { return types.Map{"args": m} }
	compile := func(src string, env types.Map) *vm.Program {
		t.Helper()
		p, err := compileShared(src, env)
		if err != nil {
			t.Fatalf("%s in %v: %v", src, env, err)
		}
		return p
	}
	const src = "args.count + 1"
	a := compile(src, args(types.Map{"count": types.Int64, "name": types.String}))
	if b := compile(src, args(types.Map{"name": types.String, "count": types.Int64})); b != a {
		t.Errorf("the same shape compiled again")
	}
	if c := compile(src, args(types.Map{"count": types.Float64, "name": types.String})); c == a {
		t.Errorf("count as a float shared the program of count as an integer")
	}
	if _, err := compileShared(src, args(types.Map{"count": types.String})); err == nil {
		t.Errorf("count as a string: no type error; a program compiled for an integer was shared")
	}
	// Names that hold the separators of the shape's text.
	x := compile("1", types.Map{"a\",\"b": types.Int64})
	if y := compile("1", types.Map{"a": types.Int64, "b": types.Int64}); x == y {
		t.Errorf("names with quotes and commas shared another environment's program")
	}
	// Nesting.
	n := compile("1", types.Map{"a": types.Map{"b": types.Int64}})
	if m := compile("1", types.Map{"a": types.Int64, "b": types.Int64}); m == n {
		t.Errorf("a nested map shared a flat one's program")
	}
	// An environment whose types cannot be written exactly is not shared.
	if _, ok := envShape(types.Map{"xs": types.Array(types.Int64)}); ok {
		t.Errorf("an array type was given a shape")
	}
	arr := types.Map{"xs": types.Array(types.Int64)}
	if p, q := compile("len(xs)", arr), compile("len(xs)", arr); p == q {
		t.Errorf("an environment with an array type was shared")
	}
}
