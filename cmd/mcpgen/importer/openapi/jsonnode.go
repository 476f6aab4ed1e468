package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// A JSON description is read into kin-openapi's types through YAML nodes
// built here from the JSON tokens. kin-openapi's types decode a node tree
// in one pass (UnmarshalYAML), while their UnmarshalJSON decodes every
// object twice and again at each level of nesting, and its YAML parser is
// slow on a 13 MB line of JSON: on GitHub's description this path is
// several times cheaper than either (BenchmarkLoadGitHub).

// jsonNode decodes a JSON document into a YAML node tree: mappings in key
// order, scalars tagged with their JSON type, lines counted for errors.
func jsonNode(data []byte) (*yaml.Node, error) {
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(data)), data: data, line: 1}
	r.dec.UseNumber()
	n, err := r.value()
	if err != nil {
		return nil, err
	}
	if _, line, err := r.token(); err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("line %d: data after the JSON document", line)
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: 1, Column: 1, Content: []*yaml.Node{n}}, nil
}

type jsonReader struct {
	dec  *json.Decoder
	data []byte
	off  int // the offset up to which lines are counted
	line int
}

// token reads the next token and the line it ends on.
func (r *jsonReader) token() (json.Token, int, error) {
	t, err := r.dec.Token()
	if err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.Is(err, io.EOF):
			err = io.ErrUnexpectedEOF
		case errors.As(err, &syntax):
			line := r.line + bytes.Count(r.data[r.off:min(int(syntax.Offset), len(r.data))], []byte{'\n'})
			err = fmt.Errorf("line %d: %w", line, err)
		}
		return nil, r.line, err
	}
	end := int(r.dec.InputOffset())
	r.line += bytes.Count(r.data[r.off:end], []byte{'\n'})
	r.off = end
	return t, r.line, nil
}

func (r *jsonReader) value() (*yaml.Node, error) {
	t, line, err := r.token()
	if err != nil {
		return nil, err
	}
	return r.node(t, line)
}

func (r *jsonReader) node(t json.Token, line int) (*yaml.Node, error) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: line, Column: 1}
	switch t := t.(type) {
	case json.Delim:
		if t == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
			return n, r.members(n)
		}
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		return n, r.elements(n)
	case string:
		n.Tag, n.Value, n.Style = "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Tag, n.Value = "!!float", string(t)
		if !strings.ContainsAny(string(t), ".eE") {
			n.Tag = "!!int"
		}
	case bool:
		n.Tag, n.Value = "!!bool", fmt.Sprint(t)
	case nil:
		n.Tag, n.Value = "!!null", "null"
	}
	return n, nil
}

// members reads an object's members up to its closing brace.
func (r *jsonReader) members(m *yaml.Node) error {
	for {
		t, line, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim('}') {
			return nil
		}
		key, _ := t.(string) // the decoder allows only strings here
		v, err := r.value()
		if err != nil {
			return err
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: 1}
		m.Content = append(m.Content, k, v)
	}
}

// elements reads an array's elements up to its closing bracket.
func (r *jsonReader) elements(s *yaml.Node) error {
	for {
		t, line, err := r.token()
		if err != nil {
			return err
		}
		if t == json.Delim(']') {
			return nil
		}
		v, err := r.node(t, line)
		if err != nil {
			return err
		}
		s.Content = append(s.Content, v)
	}
}
