package schema

import "github.com/invopop/jsonschema"

// envRefDef is the definition of an environment reference. mcpgen expands
// `${VAR}` and `${VAR:-default}` before a value is typed, so wherever the
// config takes a number, a boolean or a constrained string it also takes a
// string holding a reference.
const envRefDef = "EnvRef"

func envRefSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}`,
		Description: "An environment reference such as ${PORT} or ${PORT:-8080}, expanded when the config loads."}
}

// allowEnvRefs rewrites every typed scalar schema under s (numbers,
// booleans, strings with a pattern or an enum) to also accept an
// environment reference.
func allowEnvRefs(s *jsonschema.Schema) {
	s.Definitions[envRefDef] = envRefSchema()
	seen := map[*jsonschema.Schema]bool{}
	for name, d := range s.Definitions {
		if name != envRefDef {
			walkEnv(d, seen)
		}
	}
	walkEnv(s, seen)
}

func walkEnv(s *jsonschema.Schema, seen map[*jsonschema.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if typedScalar(s) {
		inner := *s
		inner.Description, inner.Title = "", ""
		*s = jsonschema.Schema{Description: s.Description, Title: s.Title,
			AnyOf: []*jsonschema.Schema{&inner, {Ref: "#/$defs/" + envRefDef}}}
		return
	}
	for _, c := range children(s) {
		walkEnv(c, seen)
	}
}

// typedScalar reports whether a value matching s must be typed or
// constrained so that a reference would not pass.
func typedScalar(s *jsonschema.Schema) bool {
	if s.Const != nil || s.Ref != "" {
		return false
	}
	switch s.Type {
	case "integer", "number", "boolean":
		return true
	case "string":
		return s.Pattern != "" || len(s.Enum) > 0
	}
	return false
}

func children(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Items, s.AdditionalProperties, s.If, s.Then, s.Else, s.Not}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			out = append(out, p.Value)
		}
	}
	for _, p := range s.PatternProperties {
		out = append(out, p)
	}
	return out
}
