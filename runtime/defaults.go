package runtime

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkDefaults reports argument defaults the tool's input schema rejects.
// A default is handed to the handler as if the model had passed it, after
// the arguments were validated, so it must be valid itself.
func (b *builder) checkDefaults(f *load.File, path string, t *spec.Tool, in *schema) {
	if in == nil {
		return
	}
	if t.InputSchema == nil {
		// the concise form's schema is compiled on first use: check its
		// defaults against the argument's own constraints instead
		for i, a := range t.Args {
			if msg := argDefaultProblem(a); msg != "" {
				b.errorf(f, fmt.Sprintf("%s.args[%d].default", path, i), "the default is not a valid value: %s", msg)
			}
		}
		return
	}
	for _, p := range in.defaultProblems() {
		b.errorf(f, path+".input_schema.properties."+p.name+".default", "the default is not a valid value: %s", p.msg)
	}
}

// defaultProblem is a property whose default its schema rejects.
type defaultProblem struct{ name, msg string }

// defaultProblems validates the defaults of the schema's top-level
// properties, together, and returns what is wrong with each, by name.
func (s *schema) defaultProblems() []defaultProblem {
	props, _ := s.doc["properties"].(map[string]any)
	defaults := map[string]any{}
	for name, p := range props {
		if p, ok := p.(map[string]any); ok {
			if d, ok := p["default"]; ok {
				defaults[name] = d
			}
		}
	}
	if len(defaults) == 0 {
		return nil
	}
	if err := s.ready(); err != nil {
		return nil // reported where the schema is checked
	}
	var ve *jsonschema.ValidationError
	if err := s.compiled.Validate(toValidatable(defaults)); !errors.As(err, &ve) {
		return nil
	}
	found := map[string][]string{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		// problems of the object as a whole (a required property) are not
		// the defaults' own
		if len(e.Causes) == 0 && len(e.InstanceLocation) > 0 {
			name := e.InstanceLocation[0]
			msg := e.ErrorKind.LocalizedString(printer)
			if len(e.InstanceLocation) > 1 {
				msg = fmt.Sprintf("at /%s: %s", strings.Join(e.InstanceLocation[1:], "/"), msg)
			}
			found[name] = append(found[name], msg)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	var out []defaultProblem
	for _, name := range slices.Sorted(maps.Keys(found)) {
		out = append(out, defaultProblem{name, strings.Join(slices.Compact(found[name]), "; ")})
	}
	return out
}
