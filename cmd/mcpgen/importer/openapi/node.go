package openapi

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// The config is built as yaml.v3 nodes: they keep key order and carry the
// comments that say where each tool came from, and --merge edits the
// user's file as nodes too.

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func flowMapping() *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
}

func sequence() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"} }

// str is a string node. The text is written as is: call lit first for text
// taken from the API description.
func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// value is a node for any decoded JSON value (a default, an enum entry).
func value(v any) *yaml.Node {
	switch v := v.(type) {
	case string:
		return str(lit(v))
	case int: // the nodes yaml.v3's Encode makes, without its reflection
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return str(lit(strings.TrimSpace(err.Error())))
	}
	return &n
}

// set appends key: val to the mapping m.
func set(m *yaml.Node, key string, val *yaml.Node) {
	m.Content = append(m.Content, str(key), val)
}

// get returns the value of key in the mapping m, or nil.
func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// lit escapes text from the description so that mcpgen reads it as
// written: `${` would otherwise be taken for an environment variable or an
// expression.
func lit(s string) string { return strings.ReplaceAll(s, "${", "$${") }

// expr is the `${{ ... }}` string of an expression.
func expr(e string) *yaml.Node { return str("${{ " + e + " }}") }
