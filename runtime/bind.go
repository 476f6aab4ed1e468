package runtime

import (
	"cmp"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/input"
)

// authName is the name expressions read the authenticated caller by.
const authName = "auth"

// errNoCaller refuses a call of a tool that acts for its caller when nobody
// authenticated: over stdio, or over HTTP without auth.
const errNoCaller = "this tool acts for the authenticated caller, and the request has none; call it over HTTP with authentication"

// boundArg is an argument the server sets from the caller (`from:`); the
// model never sees it and a client cannot pass it.
type boundArg struct {
	name     string
	typ      string // the argument's type; "" is string
	required bool
	from     *eval.Value
}

// bind sets the bound arguments from the caller (`auth`). A value that is
// nothing or empty text is not provided.
func (t *tool) bind(args, who map[string]any) error {
	if len(t.bound) == 0 {
		return nil // most tools: no map of names to evaluate with
	}
	vars := map[string]any{authName: who}
	for _, a := range t.bound {
		v, err := a.from.Eval(vars)
		if err != nil {
			return fmt.Errorf("argument %s: %w", a.name, err)
		}
		if v == nil || v == "" { // an empty subject or claim identifies nobody
			if a.required {
				return fmt.Errorf("argument %s: the caller's identity does not provide it", a.name)
			}
			continue
		}
		if s, ok := v.([]string); ok { // auth.scopes
			v = stringsToAny(s)
		}
		if typ := cmp.Or(a.typ, "string"); !input.HasType(v, typ) {
			return fmt.Errorf("argument %s: the caller's identity gives %s, not %s", a.name, input.JSONType(v), typ)
		}
		args[a.name] = v
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
