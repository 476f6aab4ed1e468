package eval

import (
	"fmt"

	"github.com/expr-lang/expr"
)

// functions are the functions mcpgen adds to expr's, or puts in place of
// its own: objects built here have text keys, as a result, a body or a
// template needs.
var functions = []expr.Option{
	expr.Function("merge", merge, new(func(...any) map[string]any)),
	expr.Function("fromPairs", fromPairs, new(func(any) map[string]any)),
}

// merge returns one object holding the keys of all its arguments, a
// later argument's value winning: `merge(args.fields, {id: args.id})`.
// An argument that is nil (an optional argument not passed) adds nothing.
func merge(params ...any) (any, error) {
	out := map[string]any{}
	for i, p := range params {
		switch m := p.(type) {
		case nil:
		case map[string]any:
			for k, v := range m {
				out[k] = v
			}
		default:
			return nil, fmt.Errorf("merge: argument %d is %s, not an object", i+1, kindOf(p))
		}
	}
	return out, nil
}

// fromPairs returns the object of a list of [key, value] pairs, each key
// as text: `fromPairs([[args.field, args.value]])`.
func fromPairs(params ...any) (any, error) {
	list, ok := params[0].([]any)
	if !ok && params[0] != nil {
		return nil, fmt.Errorf("fromPairs: the argument is %s, not a list of [key, value] pairs", kindOf(params[0]))
	}
	out := make(map[string]any, len(list))
	for i, x := range list {
		pair, ok := x.([]any)
		if !ok || len(pair) != 2 {
			return nil, fmt.Errorf("fromPairs: item %d is not a [key, value] pair", i+1)
		}
		out[Format(pair[0])] = pair[1]
	}
	return out, nil
}

// kindOf names the JSON type of x, for messages.
func kindOf(x any) string {
	switch x.(type) {
	case []any:
		return "a list"
	case string:
		return "text"
	case bool:
		return "a boolean"
	case int, int64, float64:
		return "a number"
	}
	return fmt.Sprintf("a %T", x)
}
