package spec

import "github.com/invopop/jsonschema"

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
