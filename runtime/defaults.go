package runtime

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// checkDefaults reports argument defaults the tool's input schema rejects.
// A default is handed to the handler as if the model had passed it, after
// the arguments were validated, so it must be valid itself.
func (b *builder) checkDefaults(f *load.File, path string, t *spec.Tool, in *input.Schema) {
	if in == nil {
		return
	}
	if t.InputSchema == nil {
		// the concise form's schema is compiled on first use: check its
		// defaults against the argument's own constraints instead
		for i, a := range t.Args {
			if msg := input.ArgDefaultProblem(a); msg != "" {
				b.errorf(f, fmt.Sprintf("%s.args[%d].default", path, i), "the default is not a valid value: %s", msg)
			}
		}
		return
	}
	for _, p := range in.DefaultProblems() {
		b.errorf(f, path+".input_schema.properties."+p.Name+".default", "the default is not a valid value: %s", p.Msg)
	}
}
