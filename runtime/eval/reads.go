package eval

import (
	"strings"

	"github.com/expr-lang/expr/ast"
)

// Read is a chain of names an expression reads below a root, as
// response.body?.error?.code reads [body error code] below response.
type Read struct {
	Path []string
	// Offs are the byte offsets of the names of Path in the text of the
	// YAML scalar v was compiled from.
	Offs []int
}

// Reads lists the chains of names (constant members) v reads below root,
// when v is exactly one ${{ expression }}; nil otherwise.
func (v *Value) Reads(root string) []Read {
	if v.prog == nil || v.node == nil {
		return nil
	}
	start := strings.Index(v.node.Value, Open) + len(Open)
	r := &readsVisitor{root: root, longest: map[ast.Node]*Read{}}
	node := v.prog.Node()
	ast.Walk(&node, r)
	var out []Read
	for _, base := range r.order {
		rd := r.longest[base]
		for i, from := range rd.Offs { // rune offsets in the source, until here
			rd.Offs[i] = start + byteOffset(v.src, from)
		}
		out = append(out, *rd)
	}
	return out
}

// readsVisitor keeps, for each root identifier, the longest chain read
// from it.
type readsVisitor struct {
	root    string
	longest map[ast.Node]*Read
	order   []ast.Node
}

func (r *readsVisitor) Visit(n *ast.Node) {
	m, ok := (*n).(*ast.MemberNode)
	if !ok {
		return
	}
	var path []string
	var offs []int
	var cur ast.Node = m
	for {
		mm, ok := cur.(*ast.MemberNode)
		if !ok {
			break
		}
		prop, ok := mm.Property.(*ast.StringNode)
		if !ok {
			return // a computed member: response.body[key]
		}
		path, offs = append([]string{prop.Value}, path...), append([]int{prop.Location().From}, offs...)
		cur = mm.Node
		if c, ok := cur.(*ast.ChainNode); ok {
			cur = c.Node
		}
	}
	id, ok := cur.(*ast.IdentifierNode)
	if !ok || id.Value != r.root {
		return
	}
	if prev := r.longest[id]; prev == nil {
		r.order = append(r.order, id)
	} else if len(prev.Path) >= len(path) {
		return
	}
	r.longest[id] = &Read{Path: path, Offs: offs}
}
