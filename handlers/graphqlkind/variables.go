package graphqlkind

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// maxInputDepth bounds how deep input objects are spelled out in a
// generated input schema; deeper, and on recursion, an object is left open.
const maxInputDepth = 6

// InputSchema is the JSON Schema of an operation's variables, as a tool's
// input schema: one property per variable, required when its type is
// non-null and it has no default. `mcpgen import graphql` uses it too.
func InputSchema(schema *ast.Schema, def *ast.OperationDefinition) map[string]any {
	props := map[string]any{}
	var required []string
	for _, v := range def.VariableDefinitions {
		p := typeSchema(schema, v.Type, nil)
		if d := variableDoc(v); d != "" {
			p["description"] = d
		}
		if v.DefaultValue != nil {
			if x, err := v.DefaultValue.Value(nil); err == nil {
				p["default"] = x
			}
		} else if v.Type.NonNull {
			required = append(required, v.Variable)
		}
		props[v.Variable] = p
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// variableDoc describes a variable: its own description or the comment
// above it, and its GraphQL type.
func variableDoc(v *ast.VariableDefinition) string {
	d := strings.TrimSpace(v.Description)
	if d == "" && v.Comment != nil {
		var lines []string
		for _, c := range v.Comment.List {
			lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text(), "#")))
		}
		d = strings.Join(lines, " ")
	}
	if d == "" {
		return "GraphQL " + v.Type.String()
	}
	return d + " (GraphQL " + v.Type.String() + ")"
}

// typeSchema is the JSON Schema of values of a GraphQL input type. seen
// holds the input objects being spelled out, against recursion.
func typeSchema(schema *ast.Schema, t *ast.Type, seen []string) map[string]any {
	if t.Elem != nil {
		return map[string]any{"type": "array", "items": typeSchema(schema, t.Elem, seen)}
	}
	switch t.NamedType {
	case "Int":
		return map[string]any{"type": "integer", "minimum": math.MinInt32, "maximum": math.MaxInt32}
	case "Float":
		return map[string]any{"type": "number"}
	case "String", "ID":
		return map[string]any{"type": "string"}
	case "Boolean":
		return map[string]any{"type": "boolean"}
	}
	def := schema.Types[t.NamedType]
	if def == nil {
		return map[string]any{}
	}
	s := map[string]any{}
	if d := strings.TrimSpace(def.Description); d != "" {
		s["description"] = d
	}
	switch def.Kind {
	case ast.Enum:
		values := make([]any, len(def.EnumValues))
		for i, v := range def.EnumValues {
			values[i] = v.Name
		}
		s["type"], s["enum"] = "string", values
	case ast.InputObject:
		s["type"] = "object"
		if len(seen) >= maxInputDepth || slices.Contains(seen, def.Name) {
			s["description"] = strings.TrimSpace(fmt.Sprintf("%s (GraphQL input %s, nested too deep to spell out here)", s["description"], def.Name))
			return s
		}
		props, required := map[string]any{}, []string{}
		for _, f := range def.Fields {
			p := typeSchema(schema, f.Type, append(seen, def.Name))
			if d := strings.TrimSpace(f.Description); d != "" {
				p["description"] = d
			}
			if f.DefaultValue != nil {
				if x, err := f.DefaultValue.Value(nil); err == nil {
					p["default"] = x
				}
			} else if f.Type.NonNull {
				required = append(required, f.Name)
			}
			props[f.Name] = p
		}
		s["properties"], s["additionalProperties"] = props, false
		if len(required) > 0 {
			s["required"] = required
		}
	default: // a custom scalar: its values are the API's business
		if _, ok := s["description"]; !ok {
			s["description"] = "GraphQL scalar " + def.Name
		}
	}
	return s
}

// jsonTypes are the JSON Schema types an argument may have to be sent as a
// value of a GraphQL named type; nil accepts any.
func jsonTypes(schema *ast.Schema, name string) []string {
	switch name {
	case "Int":
		return []string{"integer"}
	case "Float":
		return []string{"number", "integer"}
	case "String":
		return []string{"string"}
	case "ID":
		return []string{"string", "integer"}
	case "Boolean":
		return []string{"boolean"}
	}
	if def := schema.Types[name]; def != nil {
		switch def.Kind {
		case ast.Enum:
			return []string{"string"}
		case ast.InputObject:
			return []string{"object"}
		}
	}
	return nil
}

// mismatch reports the JSON type of an argument's schema when it cannot
// carry a variable of type t, with the types it should have, or "" when it
// can. GraphQL accepts one value where a list is expected, so a list
// variable takes a single value of its element type too.
func mismatch(schema *ast.Schema, t *ast.Type, arg map[string]any) (string, []string) {
	got, _ := arg["type"].(string)
	if got == "" {
		return "", nil // untyped: anything may come
	}
	if t.Elem != nil {
		if got == "array" {
			items, _ := arg["items"].(map[string]any)
			if items == nil {
				return "", nil
			}
			return mismatch(schema, t.Elem, items)
		}
		inner := t.Elem
		for inner.Elem != nil {
			inner = inner.Elem
		}
		return mismatch(schema, inner, arg)
	}
	want := jsonTypes(schema, t.NamedType)
	if want == nil || slices.Contains(want, got) {
		return "", nil
	}
	return got, want
}

func article(types []string) string {
	if len(types) == 1 {
		return "a" + an(types[0]) + " " + types[0]
	}
	return "a" + an(types[0]) + " " + strings.Join(types, " or ")
}

func an(w string) string {
	if strings.ContainsRune("aeiou", rune(w[0])) {
		return "n"
	}
	return ""
}
