package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// A JSON description is read into kin-openapi's types through YAML nodes
// built here. kin-openapi's types decode a node tree in one pass
// (UnmarshalYAML), while their UnmarshalJSON decodes every object twice and
// again at each level of nesting, and its YAML parser is slow on a 13 MB
// line of JSON: on GitHub's description this path is several times cheaper
// than either (BenchmarkImportGitHub). encoding/json checks the syntax
// first, so the walk below only splits what is known to be valid JSON.

// jsonNode decodes a JSON document into a YAML node tree: mappings in key
// order, scalars tagged with their JSON type, lines counted for errors.
func jsonNode(data []byte) (*yaml.Node, error) {
	if err := jsonSyntax(data); err != nil {
		return nil, err
	}
	r := &jsonReader{data: data, line: 1}
	n, err := r.value()
	if err != nil {
		return nil, err
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{n}}, nil
}

// jsonSyntax checks data is one JSON value, saying on which line it is not.
func jsonSyntax(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	if syntax, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(data[:min(int(syntax.Offset), len(data))], []byte{'\n'})
		return fmt.Errorf("line %d: %w", line, err)
	}
	return err
}

// jsonReader walks valid JSON.
type jsonReader struct {
	data  []byte
	pos   int
	line  int
	nodes []yaml.Node  // allocated in blocks, not one by one
	stack []*yaml.Node // children of the collections being read
}

func (r *jsonReader) node() *yaml.Node {
	if len(r.nodes) == 0 {
		r.nodes = make([]yaml.Node, 1024)
	}
	n := &r.nodes[0]
	r.nodes = r.nodes[1:]
	n.Line, n.Column = r.line, 1
	return n
}

// space skips white space, counting lines.
func (r *jsonReader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '\n':
			r.line++
		case ' ', '\t', '\r':
		default:
			return
		}
		r.pos++
	}
}

func (r *jsonReader) value() (*yaml.Node, error) {
	r.space()
	n := r.node()
	switch c := r.data[r.pos]; c {
	case '{', '[':
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
		if c == '[' {
			n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		}
		r.pos++
		return n, r.collection(n, c == '{')
	case '"':
		s, err := r.string()
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", s, yaml.DoubleQuotedStyle
		return n, err
	}
	start := r.pos
	for r.pos < len(r.data) && bytes.IndexByte([]byte(",]} \t\r\n"), r.data[r.pos]) < 0 {
		r.pos++
	}
	n.Kind, n.Value = yaml.ScalarNode, string(r.data[start:r.pos])
	switch n.Value {
	case "true", "false":
		n.Tag = "!!bool"
	case "null":
		n.Tag = "!!null"
	default:
		n.Tag = "!!int"
		if bytes.ContainsAny(r.data[start:r.pos], ".eE") {
			n.Tag = "!!float"
		}
	}
	return n, nil
}

// collection reads an object's members or an array's elements, up to its
// closing bracket.
func (r *jsonReader) collection(n *yaml.Node, object bool) error {
	base := len(r.stack)
	for {
		r.space()
		if c := r.data[r.pos]; c == '}' || c == ']' {
			r.pos++
			break
		} else if c == ',' {
			r.pos++
			r.space()
		}
		if object {
			k := r.node()
			s, err := r.string()
			if err != nil {
				return err
			}
			k.Kind, k.Tag, k.Value = yaml.ScalarNode, "!!str", s
			r.stack = append(r.stack, k)
			r.space()
			r.pos++ // the colon
		}
		v, err := r.value()
		if err != nil {
			return err
		}
		r.stack = append(r.stack, v)
	}
	n.Content = append([]*yaml.Node(nil), r.stack[base:]...)
	clear(r.stack[base:])
	r.stack = r.stack[:base]
	return nil
}

// string reads a string at pos: its bytes when it has no escapes and is
// valid UTF-8 (what encoding/json would return), encoding/json's decoding
// otherwise.
func (r *jsonReader) string() (string, error) {
	start := r.pos
	r.pos++
	plain := true
	for {
		c := r.data[r.pos]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			r.pos++
		}
		r.pos++
	}
	r.pos++
	raw := r.data[start:r.pos]
	if plain && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}
