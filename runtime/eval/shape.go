package eval

import (
	"fmt"
	"reflect"
	"slices"
	"sort"

	"github.com/expr-lang/expr/ast"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// A Shape is what a value is known to be when the config loads, before any
// call: the JSON type of a literal or of an expression whose type expr
// knows, and the keys of an object written as a mapping. Nil, or an empty
// Type, means nothing is known.
type Shape struct {
	// Type is a JSON Schema type: object, array, string, integer, number,
	// boolean or null; "" when not known.
	Type string
	// Props are the keys of an object whose keys are all known (Closed).
	Props  map[string]*Shape
	Closed bool
	// Items is the shape of every element of an array, when known.
	Items *Shape
}

// Shape returns what v is known to yield, nil when nothing is.
func (v *Value) Shape() *Shape {
	switch {
	case v == nil:
		return nil
	case v.prog != nil:
		return nodeShape(v.prog.Node())
	case v.parts != nil:
		return &Shape{Type: "string"}
	case v.kind == yaml.SequenceNode:
		s := &Shape{Type: "array"}
		for i, e := range v.list {
			if es := e.Shape(); i == 0 {
				s.Items = es
			} else if !es.same(s.Items) {
				s.Items = nil
				break
			}
		}
		return s
	case v.kind == yaml.MappingNode:
		s := &Shape{Type: "object", Closed: true, Props: map[string]*Shape{}}
		for i, k := range v.keys {
			s.Props[k] = v.vals[i].Shape()
		}
		return s
	}
	return litShape(v.lit)
}

// same reports whether s and t say the same thing of a value's type.
func (s *Shape) same(t *Shape) bool {
	return s != nil && t != nil && s.Type != "" && s.Type == t.Type && s.Type != "object" && s.Type != "array"
}

// litShape is the shape of a literal decoded from YAML.
func litShape(x any) *Shape {
	switch x := x.(type) {
	case nil:
		return &Shape{Type: "null"}
	case string:
		return &Shape{Type: "string"}
	case bool:
		return &Shape{Type: "boolean"}
	case int, int64, uint64:
		return &Shape{Type: "integer"}
	case float64:
		return &Shape{Type: "number"}
	case []any:
		return &Shape{Type: "array"}
	case map[string]any:
		s := &Shape{Type: "object", Closed: true, Props: map[string]*Shape{}}
		for k, e := range x {
			s.Props[k] = litShape(e)
		}
		return s
	}
	return nil
}

// nodeShape is the shape of an expression. The type expr gives a name
// (args.x) is not trusted: an optional argument that is not given is
// null. Literals, operators and builtins yield what their type says.
func nodeShape(n ast.Node) *Shape {
	switch n := n.(type) {
	case *ast.IdentifierNode, *ast.MemberNode, *ast.ChainNode, *ast.VariableDeclaratorNode:
		return nil
	case *ast.NilNode:
		return &Shape{Type: "null"}
	case *ast.MapNode:
		s := &Shape{Type: "object", Closed: true, Props: map[string]*Shape{}}
		for _, p := range n.Pairs {
			pair, ok := p.(*ast.PairNode)
			key, isString := pair.Key.(*ast.StringNode)
			if !ok || !isString {
				return &Shape{Type: "object"}
			}
			s.Props[key.Value] = nodeShape(pair.Value)
		}
		return s
	case *ast.ConditionalNode:
		if a, b := nodeShape(n.Exp1), nodeShape(n.Exp2); a.same(b) {
			return a
		}
		return nil
	case *ast.ConstantNode:
		return constShape(n.Value)
	}
	return typeShape(n.Type())
}

// constShape is the shape of a value folded when the expression compiled.
func constShape(x any) *Shape {
	if s := litShape(x); s != nil {
		return s
	}
	if x == nil {
		return nil
	}
	return typeShape(reflect.TypeOf(x))
}

// typeShape maps a Go type to a JSON type; interfaces are not known.
func typeShape(t reflect.Type) *Shape {
	if t == nil {
		return nil
	}
	switch t.Kind() {
	case reflect.String:
		return &Shape{Type: "string"}
	case reflect.Bool:
		return &Shape{Type: "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Shape{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return &Shape{Type: "number"}
	case reflect.Slice, reflect.Array:
		return &Shape{Type: "array"}
	case reflect.Map, reflect.Struct:
		return &Shape{Type: "object"}
	}
	return nil
}

// A Mismatch is a way a value of a shape can never match a JSON Schema.
type Mismatch struct {
	Path string // below the schema, e.g. .properties.name
	Msg  string
	Hint string
}

// Mismatches lists how a value of shape s can never match schema (decoded
// from JSON). It knows type, required, properties, additionalProperties
// and items; a schema it does not understand (composition, references)
// matches.
func (s *Shape) Mismatches(schema any) []Mismatch {
	var out []Mismatch
	s.mismatches(schema, "", &out)
	return out
}

func (s *Shape) mismatches(schema any, path string, out *[]Mismatch) {
	sc, ok := schema.(map[string]any)
	if s == nil || s.Type == "" || !ok || sc["$ref"] != nil || sc["anyOf"] != nil || sc["oneOf"] != nil || sc["allOf"] != nil {
		return
	}
	if want := SchemaTypes(sc["type"]); want != nil && !slices.Contains(want, s.Type) &&
		!(s.Type == "integer" && slices.Contains(want, "number")) {
		*out = append(*out, Mismatch{Path: path + ".type",
			Msg: fmt.Sprintf("the result is always %s here, never %s", article(s.Type), orList(want))})
		return
	}
	props, _ := sc["properties"].(map[string]any)
	if s.Type == "object" && s.Closed {
		s.objectMismatches(sc, props, path, out)
	}
	if s.Type == "array" && s.Items != nil {
		s.Items.mismatches(sc["items"], path+".items", out)
	}
}

func (s *Shape) objectMismatches(sc, props map[string]any, path string, out *[]Mismatch) {
	keys := make([]string, 0, len(s.Props))
	for k := range s.Props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	req, _ := sc["required"].([]any)
	for i, r := range req {
		if name, ok := r.(string); ok && s.Props[name] == nil && !slices.Contains(keys, name) {
			*out = append(*out, Mismatch{Path: fmt.Sprintf("%s.required[%d]", path, i),
				Msg: fmt.Sprintf("%q is required, and the result never has it", name), Hint: suggest.DidYouMean(name, keys)})
		}
	}
	for _, k := range keys {
		if p, ok := props[k]; ok {
			s.Props[k].mismatches(p, path+".properties."+k, out)
		} else if sc["additionalProperties"] == false {
			known := make([]string, 0, len(props))
			for name := range props {
				known = append(known, name)
			}
			sort.Strings(known)
			*out = append(*out, Mismatch{Path: path + ".additionalProperties",
				Msg: fmt.Sprintf("the result has %q, which is not allowed", k), Hint: suggest.DidYouMean(k, known)})
		}
	}
}

// SchemaTypes returns the types a JSON Schema's "type" allows, nil for any.
func SchemaTypes(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func orList(ts []string) string {
	out := ""
	for i, t := range ts {
		if i > 0 {
			out += " or "
		}
		out += article(t)
	}
	return out
}
