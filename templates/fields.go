package templates

import "text/template/parse"

// Field is a chain of fields a template reads from its data: .a.b.c, or
// $.a.b.c.
type Field struct {
	Ident []string
	// Off is the byte offset in the template's text of the dot before
	// Ident[0].
	Off int
	// Node is the parse node the chain was read from.
	Node parse.Node
}

// DataFields lists the chains of fields text reads where dot is the
// template's data: not inside range or with, whose dot is another value.
// A text that does not parse has none (Parse reports why).
func DataFields(text string) []Field {
	trees, err := parse.Parse("t", text, "", "", funcsIn(text), builtinNames)
	if err != nil || trees["t"] == nil {
		return nil
	}
	var out []Field
	walkData(trees["t"].Root, func(f Field) { out = append(out, f) })
	return out
}

// walkData calls fn for each chain of fields read in l where dot is the
// template's data.
func walkData(l *parse.ListNode, fn func(Field)) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		walkNode(n, fn)
	}
}

func walkNode(n parse.Node, fn func(Field)) {
	switch n := n.(type) {
	case *parse.ActionNode:
		walkPipe(n.Pipe, fn)
	case *parse.IfNode:
		walkPipe(n.Pipe, fn)
		walkData(n.List, fn)
		walkData(n.ElseList, fn)
	case *parse.RangeNode:
		walkPipe(n.Pipe, fn) // the body's dot is an element
	case *parse.WithNode:
		walkPipe(n.Pipe, fn)
		walkData(n.ElseList, fn)
	case *parse.FieldNode:
		// the parser places a field of several identifiers at its second one
		fn(Field{Ident: n.Ident, Off: int(n.Position()) - back(n.Ident), Node: n})
	case *parse.VariableNode:
		if len(n.Ident) > 1 && n.Ident[0] == "$" { // placed at the dot after $
			fn(Field{Ident: n.Ident[1:], Off: int(n.Position()), Node: n})
		}
	case *parse.PipeNode:
		walkPipe(n, fn)
	case *parse.CommandNode:
		for _, a := range n.Args {
			walkNode(a, fn)
		}
	case *parse.ChainNode:
		walkNode(n.Node, fn)
	}
}

func walkPipe(p *parse.PipeNode, fn func(Field)) {
	if p == nil {
		return
	}
	for _, cmd := range p.Cmds {
		walkNode(cmd, fn)
	}
}
