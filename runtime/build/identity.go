package build

import (
	"fmt"
	"maps"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/identity"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
)

// claimsConfig reads server.http.auth for expressions: whether callers
// authenticate (oauth or api_keys), and the claims expressions may read.
func (b *builder) claimsConfig(f *load.File, a *spec.Auth) {
	b.identity.Configured = a.OAuth != nil || len(a.APIKeys) > 0
	b.identity.Given = true
	for _, name := range slices.Sorted(maps.Keys(a.Claims)) {
		t := a.Claims[name]
		if !slices.Contains(spec.ClaimTypes, string(t)) {
			b.diag(f, load.Error, "server.http.auth.claims."+name, fmt.Sprintf("unknown claim type %q", t),
				"use one of "+joinOr(spec.ClaimTypes))
			continue
		}
		b.identity.Claims[name] = t
	}
	b.identity.Type = identity.AuthType(b.identity.Claims)
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

// readsAuth notes that the handler or argument being built reads `auth`,
// and reports it when no authentication is configured: nobody could ever
// call the tool.
func (b *builder) readsAuth(f *load.File, path string, v *eval.Value) {
	if !v.Uses(plan.AuthName) {
		return
	}
	b.usesAuth = true
	// auth given without oauth or api_keys is reported where it is given
	if !b.identity.Configured && !b.identity.Given {
		b.diag(f, load.Error, path, "`auth` is the authenticated caller, and server.http.auth is not configured",
			"configure server.http.auth; over stdio nobody authenticates")
	}
}

// AuthType implements handlers.CallerEnv: the type of `auth`.
func (e *buildEnv) AuthType() types.Type { return e.b.identity.Type }

// ActForCaller implements handlers.CallerEnv. A tool's handler that acts
// for its caller makes the tool need one, as reading `auth` does; a
// resource's or a completion's handler has no caller to act for.
func (e *buildEnv) ActForCaller(field, why string) bool {
	path := load.JoinPath(e.path, field)
	if !e.shared {
		if _, ok := e.extra[plan.AuthName]; !ok {
			e.failed = true
			e.b.diag(e.f, load.Error, path, why+", and this handler has no caller: only tools act for one",
				"read it through a tool, or give this handler a backend without a caller's session")
			return false
		}
		e.b.usesAuth = true
	}
	if !e.b.identity.Configured && !e.b.identity.Given {
		e.failed = true
		e.b.diag(e.f, load.Error, path, why+", and server.http.auth is not configured",
			"configure server.http.auth; over stdio nobody authenticates")
		return false
	}
	return true
}

var _ handlers.CallerEnv = (*buildEnv)(nil)
