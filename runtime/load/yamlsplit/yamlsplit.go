// Package yamlsplit parses a large config's YAML on several cores: the
// items of its top-level `tools:` list, which hold nearly all of an
// imported API description, are parsed in parts at once, beside the rest
// of the file, and joined into the tree one parse would give.
//
// It only takes a shape it can check: `tools:` alone on its line at the
// left margin, its items indented and each starting with "- " on its own
// line at that indentation, and no document markers or directives. Each
// part must parse on its own and find its items exactly on the lines that
// were split at; a part that fails (an alias to an anchor in another part,
// a quoted scalar or flow collection cut in two, a syntax error) makes
// Parse report false, and the caller parses the file whole, which reports
// any error where it is. The tree is the same as one parse's in every
// node's kind, style, tag, value, anchor, alias, line and column; comments
// next to a split may be attached to other nodes (the loader reads none).
package yamlsplit

import (
	"bytes"
	"runtime"
	"sync"

	"gopkg.in/yaml.v3"
)

// MinSize is the smallest file worth parsing in parts.
const MinSize = 1 << 20

// Parse parses data, a one-document YAML file, into its document node,
// in parts on up to GOMAXPROCS cores. It reports false when data is
// small, not of the shape it takes, or does not parse in parts; the
// caller then parses it whole.
func Parse(data []byte) (*yaml.Node, bool) {
	parts := runtime.GOMAXPROCS(0)
	if len(data) < MinSize || parts < 2 {
		return nil, false
	}
	s, ok := split(data, parts)
	if !ok {
		return nil, false
	}
	return s.parse()
}

// layout is where a file's tools list is and where it is cut.
type layout struct {
	data []byte
	// region is the byte range of the list's items; rest is data with
	// every line of it emptied, lines kept
	start, end int
	cuts       []int   // byte offsets of the parts' first lines, start first
	lines      []int   // 0-based line of each cut
	dashes     [][]int // per part, the 1-based lines of its items
}

// split finds the tools list and cuts it into up to parts pieces of about
// the same size, each starting at an item.
func split(data []byte, parts int) (*layout, bool) {
	if bytes.HasPrefix(data, []byte("%")) || bytes.Contains(data, []byte("\n---")) ||
		bytes.Contains(data, []byte("\n...")) || bytes.HasPrefix(data, []byte("---")) {
		return nil, false
	}
	l := &layout{data: data, start: -1}
	indent := -1
	var dashes []int // 0-based lines of the items
	var offs []int   // and their byte offsets
	line := 0
	for off := 0; off < len(data); line++ {
		next := bytes.IndexByte(data[off:], '\n')
		if next < 0 {
			next = len(data)
		} else {
			next += off + 1
		}
		text := bytes.TrimRight(data[off:next], "\r\n")
		switch {
		case l.start < 0:
			if isToolsKey(text) {
				l.start = next
			}
		case len(text) == 0 || text[0] == ' ' && isBlankOrComment(text):
		case text[0] != ' ':
			if text[0] != '#' {
				l.end = off // the next top-level key
				return l.cut(dashes, offs, parts)
			}
		default:
			n := len(text) - len(bytes.TrimLeft(text, " "))
			if indent < 0 {
				indent = n
			}
			if n == indent {
				if rest := text[n:]; len(rest) == 0 || rest[0] != '-' || len(rest) > 1 && rest[1] != ' ' || len(rest) == 1 {
					return nil, false // not an item of the list, or an item whose value starts below
				}
				dashes, offs = append(dashes, line), append(offs, off)
			} else if n < indent {
				return nil, false
			}
		}
		off = next
	}
	if l.start < 0 {
		return nil, false
	}
	l.end = len(data)
	return l.cut(dashes, offs, parts)
}

// isToolsKey reports whether a line is `tools:` at the left margin, with
// nothing after it but spaces and a comment.
func isToolsKey(text []byte) bool {
	rest, ok := bytes.CutPrefix(text, []byte("tools:"))
	return ok && (len(rest) == 0 || rest[0] == ' ' && isBlankOrComment(rest))
}

func isBlankOrComment(text []byte) bool {
	t := bytes.TrimLeft(text, " ")
	return len(t) == 0 || t[0] == '#'
}

// cut chooses the parts' first items: about len/parts bytes apart.
func (l *layout) cut(dashes, offs []int, parts int) (*layout, bool) {
	if len(dashes) < parts || offs[0] < l.start {
		return nil, false
	}
	l.start = offs[0] // comments before the first item go with the rest
	size := l.end - l.start
	k := 0
	for p := range parts {
		want := l.start + size*p/parts
		for k < len(offs) && offs[k] < want {
			k++
		}
		if k == len(offs) {
			break
		}
		if len(l.cuts) > 0 && l.cuts[len(l.cuts)-1] == offs[k] {
			continue
		}
		l.cuts, l.lines = append(l.cuts, offs[k]), append(l.lines, dashes[k])
	}
	l.dashes = make([][]int, len(l.cuts))
	for i, d := range dashes {
		p := len(l.cuts) - 1
		for p > 0 && offs[i] < l.cuts[p] {
			p--
		}
		l.dashes[p] = append(l.dashes[p], d-l.lines[p]+1)
	}
	return l, len(l.cuts) > 1
}

// parse parses the rest of the file and each part at once, and joins them.
func (l *layout) parse() (*yaml.Node, bool) {
	n := len(l.cuts)
	docs := make([]yaml.Node, n+1)
	oks := make([]bool, n+1)
	var wg sync.WaitGroup
	for i := range n + 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			oks[i] = l.parseOne(i, &docs[i])
		}()
	}
	wg.Wait()
	for _, ok := range oks {
		if !ok {
			return nil, false
		}
	}
	return l.join(docs)
}

// parseOne parses part i into doc; part n is the rest of the file.
func (l *layout) parseOne(i int, doc *yaml.Node) bool {
	if i == len(l.cuts) {
		return yaml.Unmarshal(l.rest(), doc) == nil
	}
	end := l.end
	if i+1 < len(l.cuts) {
		end = l.cuts[i+1]
	}
	if yaml.Unmarshal(l.data[l.cuts[i]:end], doc) != nil || len(doc.Content) != 1 {
		return false
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != len(l.dashes[i]) {
		return false
	}
	for j, item := range seq.Content {
		if item.Line != l.dashes[i][j] {
			return false
		}
	}
	shift(seq, l.lines[i])
	return true
}

// rest is the file with the list's lines emptied: `tools:` is null there,
// and every other line where it was.
func (l *layout) rest() []byte {
	region := l.data[l.start:l.end]
	out := make([]byte, 0, len(l.data)-len(region)+bytes.Count(region, []byte("\n")))
	out = append(out, l.data[:l.start]...)
	out = append(out, bytes.Repeat([]byte("\n"), bytes.Count(region, []byte("\n")))...)
	return append(out, l.data[l.end:]...)
}

// shift moves the nodes of a part down to the lines they are on in the
// file. (A tree's nodes are its own: an alias points at its anchor, it does
// not hold it.)
func shift(n *yaml.Node, lines int) {
	n.Line += lines
	for _, c := range n.Content {
		shift(c, lines)
	}
}

// join puts the parts' items, in order, under `tools:` of the rest, where
// the rest has it null.
func (l *layout) join(docs []yaml.Node) (*yaml.Node, bool) {
	doc := &docs[len(docs)-1]
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	root := doc.Content[0]
	found := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "tools" || k.Column != 1 {
			continue
		}
		if found || v.Kind != yaml.ScalarNode || v.Tag != "!!null" || v.Value != "" {
			return nil, false
		}
		found = true
		seq := docs[0].Content[0]
		for _, d := range docs[1 : len(docs)-1] {
			seq.Content = append(seq.Content, d.Content[0].Content...)
		}
		root.Content[i+1] = seq
	}
	return doc, found
}
