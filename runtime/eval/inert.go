package eval

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// IsExpression reports whether v is exactly one ${{ expression }}, with no
// text around it: its value is the expression's, whole.
func (v *Value) IsExpression() bool { return v.prog != nil }

// Inert reports whether no text from the names v is evaluated with can
// reach what it yields: v is constant, or each of its expressions yields
// only a number, a boolean, or values written literally in the expression
// itself, as in `args.all ? ['-a'] : []`, where the argument chooses but
// the config's author wrote every choice.
func (v *Value) Inert() bool {
	if v.prog != nil {
		return inertNode(v.prog.Node())
	}
	for _, p := range v.parts {
		if p.prog != nil && !inertNode(p.prog.Node()) {
			return false
		}
	}
	for _, e := range append(v.list, v.vals...) {
		if !e.Inert() {
			return false
		}
	}
	return true
}

// inertNode reports whether every value n can yield is a number, a
// boolean, nil or a literal written in n.
func inertNode(n ast.Node) bool {
	if t := n.Type(); t != nil {
		switch t.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			return true
		}
	}
	switch n := n.(type) {
	case *ast.StringNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NilNode, *ast.ConstantNode:
		return true
	case *ast.ConditionalNode:
		return inertNode(n.Exp1) && inertNode(n.Exp2)
	case *ast.ArrayNode:
		for _, e := range n.Nodes {
			if !inertNode(e) {
				return false
			}
		}
		return true
	}
	return false
}

// Path returns the names v only looks up when it is exactly one ${{
// expression }} reading a path, as ["args", "namespace"] for `${{
// args.namespace }}`; nil otherwise.
func (v *Value) Path() []string {
	if v.prog == nil {
		return nil
	}
	return v.path
}

// Prefixed returns the text before v's expression when v is text followed
// by exactly one ${{ expression }}, with nothing after it, as "--name="
// in `--name=${{ args.name }}`.
func (v *Value) Prefixed() (string, bool) {
	if len(v.parts) != 2 || v.parts[0].prog != nil || v.parts[1].prog == nil {
		return "", false
	}
	return v.parts[0].text, true
}
