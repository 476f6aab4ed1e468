package runtime

import (
	"cmp"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// errNoCaller refuses a call of a tool that acts for its caller when nobody
// authenticated: over stdio, or over HTTP without auth.
const errNoCaller = "this tool acts for the authenticated caller, and the request has none; call it over HTTP with authentication"

// bind sets the bound arguments from the caller (`auth`). A value that is
// nothing or empty text is not provided.
func bind(t *plan.Tool, args, who map[string]any) error {
	if len(t.Bound) == 0 {
		return nil // most tools: no map of names to evaluate with
	}
	vars := map[string]any{plan.AuthName: who}
	for _, a := range t.Bound {
		v, err := a.From.Eval(vars)
		if err != nil {
			return fmt.Errorf("argument %s: %w", a.Name, err)
		}
		if v == nil || v == "" { // an empty subject or claim identifies nobody
			if a.Required {
				return fmt.Errorf("argument %s: the caller's identity does not provide it", a.Name)
			}
			continue
		}
		if s, ok := v.([]string); ok { // auth.scopes
			v = stringsToAny(s)
		}
		if typ := cmp.Or(a.Type, "string"); !input.HasType(v, typ) {
			return fmt.Errorf("argument %s: the caller's identity gives %s, not %s", a.Name, input.JSONType(v), typ)
		}
		args[a.Name] = v
	}
	return nil
}

func stringsToAny(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}
