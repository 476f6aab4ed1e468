package spec

import (
	"fmt"
	"time"

	"github.com/invopop/jsonschema"
	"gopkg.in/yaml.v3"
)

// Node is a part of the config kept as the YAML parser produced it, with the
// position of every scalar, for the stage that decodes it later.
type Node = *yaml.Node

// Value is any YAML value: a scalar, a list or a mapping, kept as written with
// its position. A string that is exactly one `${{ expr }}` yields the
// expression's typed value; a `${{ expr }}` inside longer text is
// interpolated; any other string is a literal.
type Value struct {
	Node Node
}

// IsZero reports whether the value was not given.
func (v *Value) IsZero() bool { return v == nil || v.Node == nil }

// JSONSchema describes a Value in the config's schema: anything goes.
func (Value) JSONSchema() *jsonschema.Schema { return &jsonschema.Schema{} }

// Duration is a length of time written as a Go duration: 500ms, 30s, 2m.
type Duration time.Duration

// JSONSchema describes a Duration in the config's schema.
func (Duration) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Pattern:     `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`,
		Description: "A duration such as 500ms, 30s or 2m.",
	}
}

// Size is a number of bytes, written as a number or with a unit: 512, 64KiB,
// 4MiB, 1GiB.
type Size int64

// String writes s for people as a config would, in the largest binary unit
// that divides it: 512 bytes, 64KiB, 4MiB.
func (s Size) String() string {
	switch {
	case s >= 1<<20 && s%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", s>>20)
	case s >= 1<<10 && s%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", s>>10)
	}
	return fmt.Sprintf("%d bytes", int64(s))
}

// JSONSchema describes a Size in the config's schema.
func (Size) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "integer", Minimum: "0"},
			{Type: "string", Pattern: `^[0-9]+ ?(B|KB|KiB|MB|MiB|GB|GiB)?$`},
		},
		Description: "A size in bytes: 512, 64KiB, 4MiB.",
	}
}
