package openapi

import (
	"cmp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// direction says which side of the API a schema describes: readOnly
// properties are not sent, writeOnly ones are never returned.
type direction int

const (
	input direction = iota
	output
)

// schemas converts OpenAPI schemas into JSON Schemas that models handle:
// $refs inlined up to a bounded depth, allOf merged into one object,
// recursion cut with a note, oneOf and anyOf kept below the root.
type schemas struct {
	depth int // how many $refs deep schemas are inlined
	dir   direction
	// done holds the schemas of $refs already converted: a large
	// description refers to the same few schemas from hundreds of places.
	done map[doneKey]*yaml.Node
}

// doneKey is what the conversion of a $ref depends on: the schema, the
// direction and the $refs around it (for recursion and depth).
type doneKey struct {
	s     *openapi3.Schema
	dir   direction
	stack string
}

// convert returns the JSON Schema of ref. stack holds the $refs being
// inlined around it, outermost first. A schema converted before is shared
// below its root, which is the caller's to change.
func (c schemas) convert(ref *openapi3.SchemaRef, stack []string) *yaml.Node {
	if ref == nil || ref.Value == nil {
		return mapping()
	}
	if ref.Ref == "" || c.done == nil {
		return c.convertRef(ref, stack)
	}
	key := doneKey{ref.Value, c.dir, strings.Join(append(stack, ref.Ref), "\x00")}
	n := c.done[key]
	if n == nil {
		n = c.convertRef(ref, stack)
		c.done[key] = n
	}
	root := *n
	root.Content = slices.Clone(n.Content)
	return &root
}

func (c schemas) convertRef(ref *openapi3.SchemaRef, stack []string) *yaml.Node {
	if name := refName(ref.Ref); name != "" {
		if slices.Contains(stack, ref.Ref) {
			return cut(ref.Value, name+" again (recursive): not expanded")
		}
		if len(stack) >= c.depth {
			return cut(ref.Value, name+": not expanded (nested too deep)")
		}
		stack = append(stack, ref.Ref)
	}
	s := ref.Value
	if len(s.AllOf) > 0 {
		s = merged(s)
	}
	n := mapping()
	c.typed(n, s)
	c.constraints(n, s)
	c.object(n, s, stack)
	if s.Items != nil {
		set(n, "items", c.convert(s.Items, stack))
	}
	c.alternatives(n, "oneOf", s.OneOf, stack)
	c.alternatives(n, "anyOf", s.AnyOf, stack)
	return n
}

// refName is the last part of a $ref, the name of the schema it points at.
func refName(ref string) string {
	if ref == "" {
		return ""
	}
	return ref[strings.LastIndexAny(ref, "/#")+1:]
}

// cut stands in for a schema that is not inlined: its type and a note.
func cut(s *openapi3.Schema, note string) *yaml.Node {
	n := mapping()
	if t := types(s); len(t) == 1 && t[0] != "null" {
		set(n, "type", str(t[0]))
	}
	if s.Description != "" {
		note = trim(s.Description, 200) + " (" + note + ")"
	}
	set(n, "description", str(lit(note)))
	return n
}

// typed writes type (a list when null is allowed), format, description,
// enum, const and default.
func (c schemas) typed(n *yaml.Node, s *openapi3.Schema) {
	if t := types(s); len(t) == 1 {
		set(n, "type", str(t[0]))
	} else if len(t) > 1 {
		l := sequence()
		l.Style = yaml.FlowStyle
		for _, e := range t {
			l.Content = append(l.Content, str(e))
		}
		set(n, "type", l)
	}
	if s.Format != "" {
		set(n, "format", str(lit(s.Format)))
	}
	if s.Description != "" || s.Title != "" {
		set(n, "description", str(lit(trim(cmp.Or(s.Description, s.Title), 500))))
	}
	if len(s.Enum) > 0 {
		l := sequence()
		l.Style = yaml.FlowStyle
		for _, e := range s.Enum {
			l.Content = append(l.Content, value(e))
		}
		set(n, "enum", l)
	}
	if s.Const != nil {
		set(n, "const", value(s.Const))
	}
	if s.Default != nil {
		set(n, "default", value(s.Default))
	}
}

// types is the schema's JSON types, "null" added for OpenAPI 3.0's
// nullable.
func types(s *openapi3.Schema) []string {
	var t []string
	if s.Type != nil {
		t = slices.Clone(s.Type.Slice())
	}
	if s.Nullable && len(t) > 0 && !slices.Contains(t, "null") {
		t = append(t, "null")
	}
	return t
}

// constraints writes the bounds of numbers, strings and arrays.
func (c schemas) constraints(n *yaml.Node, s *openapi3.Schema) {
	bound := func(key, exclusive string, v *float64, eb openapi3.ExclusiveBound) {
		switch {
		case eb.Value != nil:
			set(n, exclusive, value(*eb.Value))
		case v != nil && eb.IsTrue():
			set(n, exclusive, value(*v))
		case v != nil:
			set(n, key, value(*v))
		}
	}
	bound("minimum", "exclusiveMinimum", s.Min, s.ExclusiveMin)
	bound("maximum", "exclusiveMaximum", s.Max, s.ExclusiveMax)
	if s.MultipleOf != nil {
		set(n, "multipleOf", value(*s.MultipleOf))
	}
	if s.MinLength > 0 {
		set(n, "minLength", value(s.MinLength))
	}
	if s.MaxLength != nil {
		set(n, "maxLength", value(*s.MaxLength))
	}
	if s.Pattern != "" {
		set(n, "pattern", str(lit(s.Pattern)))
	}
	if s.MinItems > 0 {
		set(n, "minItems", value(s.MinItems))
	}
	if s.MaxItems != nil {
		set(n, "maxItems", value(*s.MaxItems))
	}
	if s.UniqueItems {
		set(n, "uniqueItems", value(true))
	}
}

// object writes properties (without those not sent in this direction),
// required and additionalProperties.
func (c schemas) object(n *yaml.Node, s *openapi3.Schema, stack []string) {
	names := c.properties(s)
	if len(names) > 0 {
		props := mapping()
		for _, name := range names {
			set(props, name, c.convert(s.Properties[name], stack))
		}
		set(n, "properties", props)
	}
	if req := c.required(s, names); len(req) > 0 {
		l := sequence()
		l.Style = yaml.FlowStyle
		for _, r := range req {
			l.Content = append(l.Content, str(r))
		}
		set(n, "required", l)
	}
	ap := s.AdditionalProperties
	switch {
	case ap.Has != nil && !*ap.Has:
		set(n, "additionalProperties", value(false))
	case ap.Schema != nil:
		set(n, "additionalProperties", c.convert(ap.Schema, stack))
	}
}

// properties lists the properties of s sent in this direction, sorted.
func (c schemas) properties(s *openapi3.Schema) []string {
	var names []string
	for name, p := range s.Properties {
		if p != nil && p.Value != nil && (c.dir == input && p.Value.ReadOnly || c.dir == output && p.Value.WriteOnly) {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// required keeps the required names but those of properties not sent in
// this direction. A name without a property here stays: in a oneOf
// alternative it refers to the enclosing object's properties.
func (c schemas) required(s *openapi3.Schema, names []string) []string {
	var req []string
	for _, r := range s.Required {
		_, here := s.Properties[r]
		if (!here || slices.Contains(names, r)) && !slices.Contains(req, r) {
			req = append(req, r)
		}
	}
	return req
}

func (c schemas) alternatives(n *yaml.Node, key string, refs openapi3.SchemaRefs, stack []string) {
	if len(refs) == 0 {
		return
	}
	l := sequence()
	for _, r := range refs {
		l.Content = append(l.Content, c.convert(r, stack))
	}
	set(n, key, l)
}

// merged folds allOf into one schema: the union of the properties and of
// the required names, and the first type, format and description found.
func merged(s *openapi3.Schema) *openapi3.Schema {
	m := *s
	m.AllOf = nil
	m.Properties = make(openapi3.Schemas, len(s.Properties))
	for k, v := range s.Properties {
		m.Properties[k] = v
	}
	m.Required = slices.Clone(s.Required)
	for _, part := range s.AllOf {
		if part == nil || part.Value == nil {
			continue
		}
		p := part.Value
		if len(p.AllOf) > 0 {
			p = merged(p)
		}
		for k, v := range p.Properties {
			if _, ok := m.Properties[k]; !ok {
				m.Properties[k] = v
			}
		}
		m.Required = append(m.Required, p.Required...)
		if m.Type == nil || m.Type.IsEmpty() {
			m.Type = p.Type
		}
		m.Format = cmp.Or(m.Format, p.Format)
		m.Description = cmp.Or(m.Description, p.Description)
		if len(m.Enum) == 0 {
			m.Enum = p.Enum
		}
		m.Nullable = m.Nullable || p.Nullable
		m.OneOf = append(m.OneOf, p.OneOf...)
		m.AnyOf = append(m.AnyOf, p.AnyOf...)
		if m.Items == nil {
			m.Items = p.Items
		}
		if m.AdditionalProperties.Has == nil && m.AdditionalProperties.Schema == nil {
			m.AdditionalProperties = p.AdditionalProperties
		}
	}
	if len(m.Properties) > 0 && (m.Type == nil || m.Type.IsEmpty()) {
		m.Type = &openapi3.Types{"object"}
	}
	return &m
}
