package schema

import (
	"reflect"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/spec/rule"
)

// name names the definition of t (see defName) and remembers which Go type
// it came from, so that the rules declared on the type can be added to it.
func (g *generator) name(t reflect.Type) string {
	n := defName(t)
	if t.Kind() == reflect.Struct && n != "" {
		g.types[n] = t
	}
	return n
}

// addRules adds to each definition reflected from a Go type the groups of
// keys declared on that type (package spec/rule): the loader checks the
// same declaration, so editors and `mcpgen validate` agree.
func (g *generator) addRules(defs jsonschema.Definitions) {
	for name, d := range defs {
		if t, ok := g.types[name]; ok {
			for _, gr := range rule.Groups(t) {
				d.AllOf = append(d.AllOf, groupSchema(gr))
			}
		}
	}
}

// groupSchema says "exactly one of" as a oneOf of required keys, and "at
// most one of" as no two of the keys together.
func groupSchema(gr rule.Group) *jsonschema.Schema {
	if gr.Exactly {
		s := &jsonschema.Schema{}
		for _, n := range gr.Names {
			s.OneOf = append(s.OneOf, &jsonschema.Schema{Required: []string{n}})
		}
		return s
	}
	not := &jsonschema.Schema{}
	for i, a := range gr.Names {
		for _, b := range gr.Names[i+1:] {
			not.AnyOf = append(not.AnyOf, &jsonschema.Schema{Required: []string{a, b}})
		}
	}
	return &jsonschema.Schema{Not: not}
}

// groupRules reads back, for the reference, the groups groupSchema wrote
// into a definition: "Give exactly one of `text`, `blob`."
func groupRules(d *node) []string {
	var out []string
	for _, a := range d.AllOf {
		var names []string
		how := "exactly"
		switch {
		case len(a.OneOf) > 0:
			for _, o := range a.OneOf {
				names = append(names, o.Required...)
			}
		case a.Not != nil:
			how = "at most"
			for _, o := range a.Not.AnyOf {
				for _, n := range o.Required {
					if !slices.Contains(names, n) {
						names = append(names, n)
					}
				}
			}
		}
		if len(names) > 0 {
			out = append(out, "Give "+how+" one of `"+strings.Join(names, "`, `")+"`.")
		}
	}
	return out
}
