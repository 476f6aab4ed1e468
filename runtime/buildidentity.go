package runtime

import (
	"fmt"
	"maps"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

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
