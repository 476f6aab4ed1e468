package spec

import "github.com/invopop/jsonschema"

// Auth authenticates the clients of `serve --http` and says what mcpgen may
// read of them. Handler expressions see the authenticated caller as `auth`:
// `auth.subject` (the token's subject, or key:NAME for an API key),
// `auth.client_id`, `auth.scopes` (a list of strings) and `auth.claims.NAME`.
// The caller's own token is never among them: no expression can send it
// anywhere. Over stdio nobody authenticates, so a tool that reads `auth`
// refuses every call there.
type Auth struct {
	// Claims declares the types of the token claims expressions read, e.g.
	// `{email: string, groups: array}`, so that `auth.claims.email` is
	// type-checked when the config loads. A claim not declared here has
	// type any. A token whose claim has another type than declared is
	// treated as not having it.
	Claims map[string]ClaimType `yaml:"claims,omitempty"`
}

// ClaimType is the type of a token claim: string, number, integer, boolean,
// array or object.
type ClaimType string

// ClaimTypes are the values a ClaimType may take.
var ClaimTypes = []string{"string", "number", "integer", "boolean", "array", "object"}

// JSONSchema describes a ClaimType in the config's schema.
func (ClaimType) JSONSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: "The type of a claim."}
	for _, t := range ClaimTypes {
		s.Enum = append(s.Enum, t)
	}
	return s
}
