// Package identity is what the server knows of its callers, as
// expressions see them: whether they authenticate, the declared types of
// their claims, the type of `auth` (build time), and the caller of a
// request as a value (call time).
package identity

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

// Identity is what the server knows of its callers: whether they
// authenticate, and the declared types of their claims.
type Identity struct {
	Configured bool                      // server.http.auth has oauth or api_keys
	Given      bool                      // server.http.auth is there, complete or not
	Claims     map[string]spec.ClaimType // declared claim types, by name
	Type       types.Map                 // the type of `auth`
}

// New returns the identity of a server without authentication.
func New() *Identity {
	return &Identity{Claims: map[string]spec.ClaimType{}, Type: AuthType(nil)}
}

// claimTypes are the expression types of the declared claim types.
var claimTypes = map[spec.ClaimType]types.Type{
	"string": types.String, "number": types.Float64, "integer": types.Int64, "boolean": types.Bool,
	"array": types.TypeOf([]any{}), "object": types.Map{types.Extra: types.Any},
}

// AuthType types `auth`: its fields, and the claims as declared; a claim
// not declared has type any.
func AuthType(claims map[string]spec.ClaimType) types.Map {
	c := types.Map{types.Extra: types.Any}
	for name, t := range claims {
		c[name] = claimTypes[t]
	}
	return types.Map{"subject": types.String, "client_id": types.String,
		"scopes": types.TypeOf([]string{}), "claims": c}
}

// CallerVars returns the caller on ctx as expressions see it, or nil when
// nobody authenticated. Declared claims of another type are left out, so
// a value never contradicts the type its expressions were checked against.
func (id *Identity) CallerVars(ctx context.Context) map[string]any {
	c := auth.CallerFrom(ctx)
	if c == nil {
		return nil
	}
	claims := make(map[string]any, len(c.Claims))
	for name, v := range c.Claims {
		t, declared := id.Claims[name]
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
