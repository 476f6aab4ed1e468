package shellkind

import (
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/mcpgen/mcpgen/runtime/eval"
)

// writtenFlags returns the string literals starting with '-' written in the
// ${{ expressions }} of text, as in `${{ args.all ? ['-a'] : [] }}`. A
// computed value equal to one of them was chosen by the config's author,
// not by an argument, so it may be an option.
func writtenFlags(text string) []string {
	var found literals
	for rest := text; ; {
		i := strings.Index(rest, eval.Open)
		if i < 0 {
			return found
		}
		rest = rest[i+len(eval.Open):]
		j := strings.Index(rest, eval.Close)
		if j < 0 {
			return found
		}
		if tree, err := parser.Parse(rest[:j]); err == nil {
			ast.Walk(&tree.Node, &found)
		}
		rest = rest[j+len(eval.Close):]
	}
}

// literals collects string literals that look like options.
type literals []string

// Visit keeps n if it is such a literal.
func (l *literals) Visit(n *ast.Node) {
	if s, ok := (*n).(*ast.StringNode); ok && strings.HasPrefix(s.Value, "-") {
		*l = append(*l, s.Value)
	}
}

var _ ast.Visitor = (*literals)(nil)
