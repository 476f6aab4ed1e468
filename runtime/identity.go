package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/load"
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

func newIdentity() *identity {
	return &identity{claims: map[string]spec.ClaimType{}, typ: authType(nil)}
}

// claimsConfig reads server.http.auth for expressions: whether callers
// authenticate (oauth or api_keys), and the claims expressions may read.
func (b *builder) claimsConfig(f *load.File, a *spec.Auth) {
	b.identity.configured = a.OAuth != nil || len(a.APIKeys) > 0
	b.identity.given = true
	for _, name := range slices.Sorted(maps.Keys(a.Claims)) {
		t := a.Claims[name]
		if !slices.Contains(spec.ClaimTypes, string(t)) {
			b.diag(f, load.Error, "server.http.auth.claims."+name, fmt.Sprintf("unknown claim type %q", t),
				"use one of "+joinOr(spec.ClaimTypes))
			continue
		}
		b.identity.claims[name] = t
	}
	b.identity.typ = authType(b.identity.claims)
}

func joinOr(words []string) string {
	if len(words) < 2 {
		return fmt.Sprint(words)
	}
	out := ""
	for i, w := range words[:len(words)-1] {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out + " or " + words[len(words)-1]
}

// claimTypes are the expression types of the declared claim types.
var claimTypes = map[spec.ClaimType]types.Type{
	"string": types.String, "number": types.Float64, "integer": types.Int64, "boolean": types.Bool,
	"array": types.TypeOf([]any{}), "object": types.Map{types.Extra: types.Any},
}

// authType types `auth`: its fields, and the claims as declared; a claim
// not declared has type any.
func authType(claims map[string]spec.ClaimType) types.Map {
	c := types.Map{types.Extra: types.Any}
	for name, t := range claims {
		c[name] = claimTypes[t]
	}
	return types.Map{"subject": types.String, "client_id": types.String,
		"scopes": types.TypeOf([]string{}), "claims": c}
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

// readsAuth notes that the handler or argument being built reads `auth`,
// and reports it when no authentication is configured: nobody could ever
// call the tool.
func (b *builder) readsAuth(f *load.File, path string, v *eval.Value) {
	if !v.Uses(authName) {
		return
	}
	b.usesAuth = true
	// auth given without oauth or api_keys is reported where it is given
	if !b.identity.configured && !b.identity.given {
		b.diag(f, load.Error, path, "`auth` is the authenticated caller, and server.http.auth is not configured",
			"configure server.http.auth; over stdio nobody authenticates")
	}
}
