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

// RateLimit caps how often one caller may call a tool: a token bucket of
// `burst` calls refilled at `per_caller`. Callers are told apart by their
// authenticated subject; without authentication (stdio, or HTTP without
// auth) every call counts against one shared bucket. A call over the limit
// gets a tool error saying when to retry, and nothing runs. Buckets live in
// the memory of one server process.
type RateLimit struct {
	// PerCaller is the sustained rate allowed to each caller: a number of
	// calls per second, minute or hour, e.g. 10/s, 100/m, 1000/h.
	PerCaller Rate `yaml:"per_caller" jsonschema:"required"`
	// Burst is how many calls a caller may make at once; the bucket then
	// refills at the rate. Defaults to the number in `per_caller` (10 for
	// 10/m).
	Burst int `yaml:"burst,omitempty" jsonschema:"minimum=1"`
}

// Rate is a number of events per unit of time: 10/s, 100/m, 1000/h.
type Rate string

// JSONSchema describes a Rate in the config's schema.
func (Rate) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `^[0-9]+(\.[0-9]+)?/(s|m|h)$`,
		Description: "A rate such as 10/s, 100/m or 1000/h."}
}
