package spec

import "github.com/invopop/jsonschema"

// RateLimit caps how often a tool may be called: by each caller
// (`per_caller`), by all callers together (`global`), or both. Each is a
// token bucket of `burst` calls refilled at its rate. Callers are told
// apart by their authenticated subject; without authentication (stdio, or
// HTTP without auth) every call counts against one shared bucket. A call
// over a limit gets a tool error saying when to retry, and nothing runs.
// Buckets live in the memory of one server process.
type RateLimit struct {
	// PerCaller is the sustained rate allowed to each caller: a number of
	// calls per second, minute or hour, e.g. 10/s, 100/m, 1000/h.
	PerCaller Rate `yaml:"per_caller,omitempty"`
	// Global is the sustained rate allowed to all callers together, the
	// same units as `per_caller`. Give `per_caller`, `global` or both.
	Global Rate `yaml:"global,omitempty"`
	// Burst is how many calls a caller may make at once; the bucket then
	// refills at the rate. Defaults to the number in the rate (10 for
	// 10/m); the global bucket holds the number in `global`.
	Burst int `yaml:"burst,omitempty" jsonschema:"minimum=1"`
}

// Rate is a number of events per unit of time: 10/s, 100/m, 1000/h.
type Rate string

// JSONSchema describes a Rate in the config's schema.
func (Rate) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `^[0-9]+(\.[0-9]+)?/(s|m|h)$`,
		Description: "A rate such as 10/s, 100/m or 1000/h."}
}
