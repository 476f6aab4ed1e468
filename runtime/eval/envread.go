package eval

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// EnvName is the name under which expressions read environment variables:
// ${{ "Basic " + toBase64(env.API_USER + ":" + env.API_PASSWORD) }}.
const EnvName = "env"

// Options control what an expression may read besides the names it is
// compiled against.
type Options struct {
	// Env resolves env.NAME when the config loads; nil leaves env unknown.
	// It reports false for a variable that is not set (the caller decides
	// whether that is an error, as for ${NAME}); what it returns becomes a
	// string constant in the expression.
	Env func(name string) (value string, ok bool)
}

// envReader replaces env.NAME and env["NAME"] in an expression with the
// variable's value, a string, before the expression is type-checked. Any
// other use of env (env[x], env alone) is an error: which variables a
// config reads must be known when it loads.
type envReader struct {
	lookup func(string) (string, bool)
	bare   map[*ast.IdentifierNode]bool // env identifiers not (yet) read by name
	errs   []envError
}

// envError is a problem at a rune offset in the expression's source.
type envError struct {
	from      int
	msg, hint string
}

func (r *envReader) Visit(node *ast.Node) {
	switch n := (*node).(type) {
	case *ast.IdentifierNode:
		if n.Value == EnvName {
			r.bare[n] = true
		}
	case *ast.MemberNode:
		id, ok := n.Node.(*ast.IdentifierNode)
		if !ok || id.Value != EnvName {
			return
		}
		delete(r.bare, id)
		name, ok := n.Property.(*ast.StringNode)
		if !ok {
			r.errs = append(r.errs, envError{from: id.Location().From,
				msg: "env is read by a variable's name, known when the config loads", hint: "write env.NAME"})
			return
		}
		v, set := r.lookup(name.Value)
		if !set {
			r.errs = append(r.errs, envError{from: id.Location().From,
				msg: fmt.Sprintf("env.%s: ${%s} is not set", name.Value, name.Value)})
		}
		ast.Patch(node, &ast.StringNode{Value: v})
	}
}

// done reports the uses of env that were not env.NAME.
func (r *envReader) done() []envError {
	for id := range r.bare {
		r.errs = append(r.errs, envError{from: id.Location().From,
			msg: "env is read by a variable's name, known when the config loads", hint: "write env.NAME"})
	}
	return r.errs
}

// envInExpression finds a ${ written inside an expression, where it is
// not expanded: the loader leaves ${{ … }} alone. It returns the byte
// offset of the first one in src, or -1.
func envInExpression(src string) int {
	return strings.Index(src, "${")
}
