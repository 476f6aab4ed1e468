package openapi

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The config is written by a small emitter over the node shapes the
// conversion makes (block and flow mappings and sequences, scalars, head
// comments), writing what yaml.v3's encoder writes: TestEmitMatchesEncoder
// holds it to that byte for byte. yaml.v3's encoder costs more than loading
// and converting the description together on a large one. Scalars that are
// not plainly plain (quoted, literal blocks, numbers written as strings) and
// nodes of other shapes are handed to yaml.v3 one at a time.

// emitter writes YAML into buf.
type emitter struct {
	buf []byte
	err error
	// complex is set when a key or a comment needs a form the emitter
	// does not write; Render then leaves the document to yaml.v3.
	complex bool
}

// document writes a document node, or any node as the whole document.
func (e *emitter) document(n *yaml.Node) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if !e.simple(n) {
		e.encoded(n, 0)
		return
	}
	e.comment(n.HeadComment, 0)
	switch {
	case blockMapping(n):
		e.mapping(n, 0, false)
	case blockSequence(n):
		e.sequence(n, 0, false)
	default:
		e.inline(n, 0)
		e.buf = append(e.buf, '\n')
	}
}

// simple reports whether the emitter writes n itself: no anchors, aliases,
// explicit tag styles or comments it does not place.
func (e *emitter) simple(n *yaml.Node) bool {
	if n.Anchor != "" || n.LineComment != "" || n.FootComment != "" || n.Style&yaml.TaggedStyle != 0 {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return true
	case yaml.MappingNode, yaml.SequenceNode:
		for i, c := range n.Content {
			if !e.simple(c) || c.HeadComment != "" && (n.Style&yaml.FlowStyle != 0 || n.Kind == yaml.MappingNode && i%2 == 1) {
				return false
			}
		}
		return true
	}
	return false
}

func blockMapping(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

func blockSequence(n *yaml.Node) bool {
	return n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

// mapping writes a block mapping at indent; cont says the first key goes on
// the current line (after "- ").
func (e *emitter) mapping(n *yaml.Node, indent int, cont bool) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		e.start(k.HeadComment, indent, cont)
		cont = false
		e.key(k, false)
		e.value(v, indent)
	}
}

// start begins an entry of a block collection at indent: its head
// comment, then the indentation, unless cont says the entry continues the
// line (after "- "), where yaml.v3 would place a comment otherwise: such a
// document is left to it.
func (e *emitter) start(comment string, indent int, cont bool) {
	if cont {
		e.complex = e.complex || comment != ""
		return
	}
	e.comment(comment, indent)
	e.indent(indent)
}

// value writes the value of a mapping key at indent, starting on the
// key's line.
func (e *emitter) value(v *yaml.Node, indent int) {
	switch {
	case blockMapping(v):
		e.buf = append(e.buf, ":\n"...)
		e.mapping(v, indent+2, false)
	case blockSequence(v):
		e.buf = append(e.buf, ":\n"...)
		e.sequence(v, indent+2, false)
	default:
		e.buf = append(e.buf, ": "...)
		e.inline(v, indent)
		e.buf = append(e.buf, '\n')
	}
}

// sequence writes a block sequence at indent.
func (e *emitter) sequence(n *yaml.Node, indent int, cont bool) {
	for _, item := range n.Content {
		e.start(item.HeadComment, indent, cont)
		cont = false
		e.buf = append(e.buf, "- "...)
		switch {
		case blockMapping(item):
			e.mapping(item, indent+2, true)
		case blockSequence(item):
			e.sequence(item, indent+2, true)
		default:
			e.inline(item, indent)
			e.buf = append(e.buf, '\n')
		}
	}
}

// inline writes a scalar or a flow collection (an empty collection is
// written as one) where it stands, for a block at indent.
func (e *emitter) inline(n *yaml.Node, indent int) {
	if n.Kind == yaml.ScalarNode {
		e.scalar(n, indent, false)
		return
	}
	e.flow(n)
}

// flow writes a flow mapping or sequence.
func (e *emitter) flow(n *yaml.Node) {
	open, end := byte('['), byte(']')
	if n.Kind == yaml.MappingNode {
		open, end = '{', '}'
	}
	e.buf = append(e.buf, open)
	for i, c := range n.Content {
		switch {
		case i == 0:
		case n.Kind == yaml.MappingNode && i%2 == 1:
			e.buf = append(e.buf, ": "...)
		default:
			e.buf = append(e.buf, ", "...)
		}
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			e.key(c, true)
		} else if c.Kind == yaml.ScalarNode {
			e.scalar(c, 0, true)
		} else {
			e.flow(c)
		}
	}
	e.buf = append(e.buf, end)
}

// key writes a mapping's key, in a flow mapping or a block one.
func (e *emitter) key(k *yaml.Node, inFlow bool) {
	if k.Kind == yaml.ScalarNode && k.Style == 0 && len(k.Value) <= 128 && plainAs(k, inFlow) {
		e.buf = append(e.buf, k.Value...)
		return
	}
	// The key as yaml.v3 writes it in a one-key mapping; a key it writes
	// as a complex key ("? ...") sends the document to yaml.v3.
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, str("x")}}
	open, end := "", ": x\n"
	if inFlow {
		m.Style, open, end = yaml.FlowStyle, "{", ": x}\n"
	}
	out := e.encode(m)
	key, ok := bytes.CutPrefix(out, []byte(open))
	if key, ok = bytes.CutSuffix(key, []byte(end)); !ok || bytes.HasPrefix(key, []byte("?")) || bytes.IndexByte(key, '\n') >= 0 {
		e.complex = true
	}
	e.buf = append(e.buf, key...)
}

// scalar writes a scalar: plain when it reads back as the same value,
// otherwise as yaml.v3 writes it on its own, re-indented to indent.
func (e *emitter) scalar(n *yaml.Node, indent int, inFlow bool) {
	if n.Style == 0 && plainAs(n, inFlow) {
		e.buf = append(e.buf, n.Value...)
		return
	}
	if !inFlow && n.Style == 0 && n.Tag == "!!str" && literal(n.Value) {
		e.buf = append(e.buf, "|-"...)
		for line := range strings.SplitSeq(n.Value, "\n") {
			e.buf = append(e.buf, '\n')
			if line != "" {
				e.indent(indent + 2)
				e.buf = append(e.buf, line...)
			}
		}
		return
	}
	one := &yaml.Node{Kind: n.Kind, Tag: n.Tag, Value: n.Value, Style: n.Style}
	if inFlow {
		out := e.encode(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{one}})
		e.buf = append(e.buf, bytes.TrimSuffix(bytes.TrimPrefix(out, []byte("[")), []byte("]\n"))...)
		return
	}
	e.reindented(e.encode(one), indent)
}

// encoded writes n as yaml.v3 writes it, at indent.
func (e *emitter) encoded(n *yaml.Node, indent int) {
	e.reindented(e.encode(n), indent)
	e.buf = append(e.buf, '\n')
}

// reindented appends out without its final line break, every line after
// the first indented by indent more (blank lines stay empty).
func (e *emitter) reindented(out []byte, indent int) {
	out = bytes.TrimSuffix(out, []byte("\n"))
	for i, line := range bytes.SplitAfter(out, []byte("\n")) {
		if i > 0 && len(line) > 1 {
			e.indent(indent)
		}
		e.buf = append(e.buf, line...)
	}
}

func (e *emitter) encode(n *yaml.Node) []byte {
	out, err := encode(n)
	if err != nil && e.err == nil {
		e.err = err
	}
	return out
}

// comment writes a head comment at indent the way yaml.v3 does: "# " before
// each line that does not start with "#", blank lines left blank.
func (e *emitter) comment(c string, indent int) {
	if c == "" {
		return
	}
	for line := range strings.SplitSeq(c, "\n") {
		if line == "" {
			e.buf = append(e.buf, '\n')
			continue
		}
		e.indent(indent)
		if line[0] != '#' {
			e.buf = append(e.buf, "# "...)
		}
		e.buf = append(e.buf, line...)
		e.buf = append(e.buf, '\n')
	}
}

func (e *emitter) indent(n int) {
	for n > len(spaces) {
		e.buf = append(e.buf, spaces...)
		n -= len(spaces)
	}
	e.buf = append(e.buf, spaces[:n]...)
}

const spaces = "                                                                "

// plainAs reports whether the scalar n can be written plain and read back
// with its tag; when unsure, it says no.
func plainAs(n *yaml.Node, inFlow bool) bool {
	switch n.Tag {
	case "!!str":
		return plain(n.Value, inFlow) && !special(n.Value)
	case "!!int":
		return isInt(n.Value)
	case "!!bool":
		return n.Value == "true" || n.Value == "false"
	case "!!null":
		return n.Value == "null"
	}
	return false
}

// plain reports whether s can be a plain scalar in YAML's syntax: a
// conservative subset of the rules.
func plain(s string, inFlow bool) bool {
	if s == "" || strings.IndexByte("-?:,[]{}#&*!|>'\"%@`<.~+=0123456789 ", s[0]) >= 0 {
		return false
	}
	last := s[len(s)-1]
	if last == ' ' || last == ':' {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ':' && s[i+1] == ' ', c == '#' && s[i-1] == ' ':
			return false
		case inFlow && strings.IndexByte(",[]{}:#", c) >= 0:
			return false
		}
		size, ok := printableAt(s, i)
		if !ok {
			return false
		}
		i += size
	}
	return true
}

// literal reports whether s is written as a literal block without
// indentation or chomping indicators ("|-"): several lines, no final line
// break, no leading space, no space before a line break, printable.
func literal(s string) bool {
	if !strings.Contains(s, "\n") || s[0] == ' ' || s[0] == '\n' || s[len(s)-1] == '\n' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			if s[i-1] == ' ' {
				return false
			}
			i++
			continue
		}
		size, ok := printableAt(s, i)
		if !ok {
			return false
		}
		i += size
	}
	return true
}

// printableAt reports whether the character at s[i] is written as it is
// (not a control character, not escaped), and its size in bytes.
func printableAt(s string, i int) (int, bool) {
	if c := s[i]; c < utf8.RuneSelf {
		return 1, c >= ' ' && c != 0x7f
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return size, printable(r)
}

// printable reports whether YAML writes the non-ASCII rune r as it is, not
// escaped and not taken for a line break or a byte order mark. yaml.v3
// escapes the runes beyond the Basic Multilingual Plane.
func printable(r rune) bool {
	switch {
	case r == utf8.RuneError, r == 0x2028, r == 0x2029, r == 0xFEFF:
		return false
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD:
		return true
	}
	return false
}

// special reports whether s, written plain, would read as a boolean or
// null rather than a string.
func special(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "null":
		return true
	}
	return false
}

func isInt(s string) bool {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
