package spec

import "github.com/invopop/jsonschema"

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
