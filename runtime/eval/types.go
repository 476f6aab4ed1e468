package eval

import "github.com/expr-lang/expr/types"

// TypeOf returns the expression type of values valid under a JSON Schema
// (decoded from JSON), so that expressions over arguments are type-checked
// against the tool's input schema: `args.custmer_id` is an unknown field, and
// `args.count + "x"` a type error.
//
// An object with declared properties becomes a strict map of those
// properties; anything the schema does not pin down is typed any.
func TypeOf(schema any) types.Type {
	s, ok := schema.(map[string]any)
	if !ok {
		return types.Any
	}
	switch s["type"] {
	case "string":
		return types.String
	case "integer":
		return types.Int64
	case "number":
		return types.Float64
	case "boolean":
		return types.Bool
	case "array":
		return types.TypeOf([]any{})
	case "object":
		return objectType(s)
	}
	if _, ok := s["properties"].(map[string]any); ok {
		return objectType(s)
	}
	return types.Any
}

func objectType(s map[string]any) types.Type {
	props, ok := s["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return types.Map{types.Extra: types.Any}
	}
	m := make(types.Map, len(props))
	for name, p := range props {
		m[name] = TypeOf(p)
	}
	return m
}
