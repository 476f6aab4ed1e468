package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// ID is the schema's $id.
const ID = "https://github.com/mcpgen/mcpgen/schema/mcpgen.schema.json"

var (
	configType  = reflect.TypeFor[spec.Config]()
	handlerType = reflect.TypeFor[spec.Handler]()
	nodeType    = reflect.TypeFor[spec.Node]()
	// modulePath is the import path of the module holding spec.
	modulePath = path.Dir(configType.PkgPath())
)

// Generate builds the schema of the config file from spec and the
// configuration types of kinds. root is the module's root directory, whose
// Go sources give the descriptions.
func Generate(kinds []handlers.Kind, root string) ([]byte, error) {
	g := &generator{kinds: kinds, defs: jsonschema.Definitions{}, types: map[string]reflect.Type{}}
	g.r = &jsonschema.Reflector{
		FieldNameTag:               "yaml",
		RequiredFromJSONSchemaTags: true,
		Namer:                      g.name,
		Mapper:                     g.mapType,
	}
	if err := g.comments(root); err != nil {
		return nil, err
	}
	s, err := g.build()
	if err != nil {
		return nil, err
	}
	return encode(s)
}

// encode writes a schema as indented JSON, its text as written.
func encode(s *jsonschema.Schema) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encoding the schema: %w", err)
	}
	return b.Bytes(), nil
}

// generator reflects spec and the kinds into one schema.
type generator struct {
	r     *jsonschema.Reflector
	kinds []handlers.Kind
	defs  jsonschema.Definitions  // definitions reflected from the kinds
	types map[string]reflect.Type // the Go type of each definition
}

// defName names a definition: spec's types by their name, others (a kind's
// config) by the kind and name, so that http.Config and sql.Config differ.
// A kind's package is named for its kind with "kind" after it (httpkind).
func defName(t reflect.Type) string {
	if t.Name() == "" || t.PkgPath() == configType.PkgPath() {
		return t.Name()
	}
	return strings.TrimSuffix(path.Base(t.PkgPath()), "kind") + "." + t.Name()
}

func (g *generator) build() (*jsonschema.Schema, error) {
	g.r.ExpandedStruct = true
	s := g.r.Reflect(&spec.Config{})
	g.r.ExpandedStruct = false
	s.ID = ID
	s.Title = "mcpgen configuration"
	s.Definitions["Handler"] = g.handler("Handler", func(k handlers.Kind) any {
		return k.NewConfig()
	})
	s.Definitions["Backend"] = g.handler("Backend", func(k handlers.Kind) any {
		if k.NewBackend == nil {
			return nil
		}
		return k.NewBackend()
	})
	for name, d := range g.defs {
		s.Definitions[name] = d
	}
	g.addRules(s.Definitions)
	backends, ok := s.Properties.Get("backends")
	if !ok {
		return nil, fmt.Errorf("spec.Config has no backends field")
	}
	backends.AdditionalProperties = &jsonschema.Schema{Ref: "#/$defs/Backend"}
	allowEnvRefs(s)
	return s, nil
}

// mapType gives spec.Handler the schema of a handler: its body depends on
// its kind, so it refers to the Handler definition built from the kinds.
func (g *generator) mapType(t reflect.Type) *jsonschema.Schema {
	switch t {
	case handlerType:
		return &jsonschema.Schema{Ref: "#/$defs/Handler"}
	case nodeType, nodeType.Elem():
		// raw YAML a kind decodes itself: any value
		return &jsonschema.Schema{}
	}
	return nil
}
