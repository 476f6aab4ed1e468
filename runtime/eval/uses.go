package eval

import (
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"gopkg.in/yaml.v3"
)

// Uses reports whether an expression in v reads the top-level name, such as
// `auth` in ${{ auth.subject }}. A nil v uses nothing.
func (v *Value) Uses(name string) bool {
	if v == nil {
		return false
	}
	if programUses(v.prog, name) {
		return true
	}
	for _, p := range v.parts {
		if programUses(p.prog, name) {
			return true
		}
	}
	for _, e := range append(v.list, v.vals...) {
		if e.Uses(name) {
			return true
		}
	}
	return false
}

func programUses(p *vm.Program, name string) bool {
	if p == nil {
		return false
	}
	found := ast.Find(p.Node(), func(n ast.Node) bool {
		id, ok := n.(*ast.IdentifierNode)
		return ok && id.Value == name
	})
	return found != nil
}

// CompileExpr compiles a scalar that holds one expression, with or without
// the ${{ }} around it, as in a field that takes nothing else.
func CompileExpr(n *yaml.Node, env types.Map, opts Options) (*Value, []Error) {
	if strings.Contains(n.Value, Open) {
		return Compile(n, env, opts)
	}
	c := compiler{env: env, opts: opts}
	v := &Value{kind: yaml.ScalarNode, node: n, src: n.Value}
	v.prog = c.compile(n, 0, n.Value)
	v.path = fetchPath(v.prog)
	return v, c.errs
}
