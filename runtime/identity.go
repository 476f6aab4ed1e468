package runtime

import (
	"context"
	"encoding/json"
	"math"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/spec"
)

// authName is the name expressions read the authenticated caller by.
const authName = "auth"

// errNoCaller refuses a call of a tool that acts for its caller when nobody
// authenticated: over stdio, or over HTTP without auth.
const errNoCaller = "this tool acts for the authenticated caller, and the request has none; call it over HTTP with authentication"

// identity is what the server knows of its callers: whether they
// authenticate, and the declared types of their claims.
type identity struct {
	configured bool                      // server.http.auth has oauth or api_keys
	given      bool                      // server.http.auth is there, complete or not
	claims     map[string]spec.ClaimType // declared claim types, by name
	typ        types.Map                 // the type of `auth`
}

// callerVars returns the caller on ctx as expressions see it, or nil when
// nobody authenticated. Declared claims of another type are left out, so
// a value never contradicts the type its expressions were checked against.
func (id *identity) callerVars(ctx context.Context) map[string]any {
	c := auth.CallerFrom(ctx)
	if c == nil {
		return nil
	}
	claims := make(map[string]any, len(c.Claims))
	for name, v := range c.Claims {
		t, declared := id.claims[name]
		if !declared {
			claims[name] = v
			continue
		}
		if v, ok := asClaim(v, t); ok {
			claims[name] = v
		}
	}
	return map[string]any{"subject": c.Subject, "client_id": c.ClientID,
		"scopes": slices.Clone(c.Scopes), "claims": claims}
}

// asClaim converts a decoded JSON claim to its declared type.
func asClaim(v any, t spec.ClaimType) (any, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		if err != nil {
			return nil, false
		}
		v = f
	}
	switch t {
	case "string":
		s, ok := v.(string)
		return s, ok
	case "boolean":
		b, ok := v.(bool)
		return b, ok
	case "array":
		a, ok := v.([]any)
		return a, ok
	case "object":
		m, ok := v.(map[string]any)
		return m, ok
	}
	f, ok := input.Number(v)
	if !ok {
		return nil, false
	}
	if t == "integer" {
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, false
		}
		return int64(f), true
	}
	return f, true
}
