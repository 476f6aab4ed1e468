package schema

import (
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
	orderedmap "github.com/pb33f/ordered-map/v2"
)

// handler is the schema of a handler (or, with configOf returning backend
// configs, of a named backend): `kind` picks one of the kinds, and the
// mapping must then match that kind's configuration; a handler that names
// a `backend` may leave the kind out, and must then match the configuration
// of one of the kinds (the schema cannot follow the name to its kind).
func (g *generator) handler(name string, configOf func(handlers.Kind) any) *jsonschema.Schema {
	kinds := slices.Clone(g.kinds)
	slices.SortFunc(kinds, func(a, b handlers.Kind) int { return strings.Compare(a.Name, b.Name) })
	kindProp := &jsonschema.Schema{Type: "string", Description: kindDoc(name)}
	s := &jsonschema.Schema{Type: "object", Description: g.r.CommentMap[modulePath+"/spec.Handler"],
		Properties: orderedmap.New[string, *jsonschema.Schema]()}
	s.Properties.Set("kind", kindProp)
	var ops []opsProp
	if name == "Handler" {
		s.Properties.Set("backend", backendProp())
		s.AnyOf = []*jsonschema.Schema{{Required: []string{"kind"}}, {Required: []string{"backend"}}}
	} else {
		s.Required = []string{"kind"}
		ops = g.backendOps()
		for _, p := range ops {
			s.Properties.Set(p.key, p.schema)
		}
	}
	var anyKind []*jsonschema.Schema
	for _, k := range kinds {
		cfg := configOf(k)
		if cfg == nil {
			continue
		}
		kindProp.Enum = append(kindProp.Enum, k.Name)
		config := g.kindConfig(k, cfg, name == "Handler", ops)
		anyKind = append(anyKind, config)
		s.AllOf = append(s.AllOf, &jsonschema.Schema{
			If: &jsonschema.Schema{Required: []string{"kind"},
				Properties: props("kind", &jsonschema.Schema{Const: k.Name})},
			Then: config,
		})
	}
	if name == "Handler" {
		s.AllOf = append(s.AllOf, &jsonschema.Schema{
			If:   &jsonschema.Schema{Not: &jsonschema.Schema{Required: []string{"kind"}}},
			Then: &jsonschema.Schema{AnyOf: anyKind},
		})
	}
	return s
}

func kindDoc(name string) string {
	if name == "Backend" {
		return "Kind of backend this entry configures."
	}
	return "Kind of backend that runs this handler. May be left out when `backend` names a shared backend."
}

func backendProp() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string",
		Description: "Backend names an entry of the top-level `backends` whose settings this handler uses."}
}

// kindConfig reflects a kind's configuration type into g.defs and returns
// a schema for a mapping holding it plus `kind` (and `backend`).
func (g *generator) kindConfig(k handlers.Kind, cfg any, withBackend bool, ops []opsProp) *jsonschema.Schema {
	rs := g.r.Reflect(cfg)
	for name, d := range rs.Definitions {
		g.defs[name] = d
	}
	def := rs
	if ref, ok := strings.CutPrefix(rs.Ref, "#/$defs/"); ok && g.defs[ref] != nil {
		def = g.defs[ref]
	}
	if def.Properties == nil {
		def.Properties = orderedmap.New[string, *jsonschema.Schema]()
	}
	// the mapping also holds the keys every handler has
	def.Properties.Set("kind", &jsonschema.Schema{Const: k.Name, Description: k.Doc})
	if withBackend {
		def.Properties.Set("backend", backendProp())
	}
	for _, p := range ops {
		def.Properties.Set(p.key, p.schema)
	}
	if rs.Ref != "" {
		return &jsonschema.Schema{Ref: rs.Ref}
	}
	return def
}

func props(name string, s *jsonschema.Schema) *orderedmap.OrderedMap[string, *jsonschema.Schema] {
	m := orderedmap.New[string, *jsonschema.Schema]()
	m.Set(name, s)
	return m
}

// opsProp is a key of a named backend that mcpgen reads itself, whatever
// the backend's kind (spec.Handler's fields that YAML does not decode).
type opsProp struct {
	key    string
	schema *jsonschema.Schema
}

// backendOps reflects the keys every named backend has: readiness and
// concurrency.
func (g *generator) backendOps() []opsProp {
	var out []opsProp
	for _, f := range []struct {
		key, field string
		v          any
	}{{"readiness", "Readiness", &spec.Readiness{}}, {"concurrency", "Concurrency", &spec.Concurrency{}}} {
		rs := g.r.Reflect(f.v)
		for name, d := range rs.Definitions {
			g.defs[name] = d
		}
		out = append(out, opsProp{f.key, &jsonschema.Schema{Ref: rs.Ref,
			Description: g.r.CommentMap[modulePath+"/spec.Handler."+f.field]}})
	}
	return out
}
