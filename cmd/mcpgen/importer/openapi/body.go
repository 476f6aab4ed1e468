package openapi

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// body maps the request body. An object's properties become arguments
// of their own, sent as JSON, a form or multipart parts; any other body is
// one `body` argument.
func (b *builder) body(r *request, op *openapi3.Operation) *yaml.Node {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	rb := op.RequestBody.Value
	media, mt := pickMedia(rb.Content, false)
	if mt == nil {
		return nil
	}
	s := mt.Schema
	if s == nil || s.Value == nil {
		s = openapi3.NewStringSchema().NewRef()
	}
	n := mapping()
	flat := s.Value
	if len(flat.AllOf) > 0 {
		flat = merged(flat)
	}
	props := b.schemas.properties(flat)
	structured := isJSONMedia(media) || isForm(media) || isMultipart(media)
	if !structured || len(props) == 0 || len(flat.OneOf)+len(flat.AnyOf) > 0 {
		return b.wholeBody(r, rb, media, s)
	}
	fields := mapping()
	parts := sequence()
	for _, p := range props {
		name := r.argFor(argName(p), "body")
		ps := b.schemas.convert(flat.Properties[p], nil)
		set(r.props, name, ps)
		if slices.Contains(flat.Required, p) { // required once a body is sent, and one always is
			r.required = append(r.required, name)
		}
		if isMultipart(media) {
			part := flowMapping()
			set(part, "name", str(lit(p)))
			set(part, "value", expr("args."+name))
			if f := get(ps, "format"); f != nil && (f.Value == "binary" || f.Value == "base64") {
				set(part, "filename", str(lit(p)))
			}
			parts.Content = append(parts.Content, part)
			continue
		}
		set(fields, lit(p), expr("args."+name))
	}
	switch {
	case isMultipart(media):
		set(n, "multipart", parts)
	case isForm(media):
		set(n, "form", fields)
	default:
		set(n, "json", fields)
		if media != "application/json" && media != "*/*" && media != "application/*" {
			set(n, "content_type", str(media))
		}
	}
	return n
}

// wholeBody is a body passed as one argument, `body`.
func (b *builder) wholeBody(r *request, rb *openapi3.RequestBody, media string, s *openapi3.SchemaRef) *yaml.Node {
	name := r.argFor("body", "request")
	ps := b.schemas.convert(s, nil)
	if rb.Description != "" && get(ps, "description") == nil {
		describe(ps, rb.Description)
	}
	set(r.props, name, ps)
	if rb.Required {
		r.required = append(r.required, name)
	}
	n := mapping()
	switch {
	case isJSONMedia(media):
		set(n, "json", expr("args."+name))
	default:
		set(n, "raw", expr("args."+name))
		set(n, "content_type", str(media))
	}
	return n
}
