package openapi

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// request is what an operation becomes: the input schema and the handler
// mapping each argument into the request.
type request struct {
	props    *yaml.Node // input_schema.properties
	required []string
	args     names // argument names in use
	query    *yaml.Node
	headers  *yaml.Node
	cookies  []string // expressions of the Cookie header's parts
	style    string   // query_style
	notes    []string

	schema  *yaml.Node
	handler *yaml.Node
}

var pathParam = regexp.MustCompile(`\{([^{}]+)\}`)

// request maps the operation's parameters and body to arguments and back
// into the HTTP request.
func (b *builder) request(o *Operation) *request {
	r := &request{props: mapping(), args: names{}, query: mapping(), headers: mapping()}
	params := parameters(o)
	tmpl, fixed := splitPath(o.Path)
	for _, k := range sortedKeys(fixed) {
		for _, v := range fixed[k] {
			set(r.query, lit(k), str(lit(v)))
		}
	}
	path := pathParam.ReplaceAllStringFunc(lit(tmpl), func(m string) string {
		name := m[1 : len(m)-1]
		p := params["path "+name]
		if p == nil {
			p = &openapi3.Parameter{Name: name, In: "path", Schema: openapi3.NewStringSchema().NewRef()}
		}
		return "${{ " + r.add(b, p, true) + " }}"
	})
	for _, in := range []string{"query", "header", "cookie"} {
		for _, key := range sortedKeys(params) {
			if p := params[key]; p.In == in {
				r.param(b, p)
			}
		}
	}
	body := b.body(r, o.op)
	r.assemble(b.backendFor(servers(o)), o.Method, path, body)
	return r
}

// splitPath separates what some descriptions write after the path to tell
// operations apart: a #fragment, dropped, and a ?query of fixed values.
func splitPath(p string) (string, url.Values) {
	p, _, _ = strings.Cut(p, "#")
	p, q, ok := strings.Cut(p, "?")
	if !ok {
		return p, nil
	}
	fixed, _ := url.ParseQuery(q)
	return p, fixed
}

// servers are the operation's own servers, or its path's.
func servers(o *Operation) openapi3.Servers {
	if o.op.Servers != nil && len(*o.op.Servers) > 0 {
		return *o.op.Servers
	}
	return o.item.Servers
}

// parameters are the path's parameters overridden by the operation's, by
// "in name".
func parameters(o *Operation) map[string]*openapi3.Parameter {
	ps := map[string]*openapi3.Parameter{}
	for _, list := range []openapi3.Parameters{o.item.Parameters, o.op.Parameters} {
		for _, ref := range list {
			if ref != nil && ref.Value != nil {
				ps[ref.Value.In+" "+ref.Value.Name] = ref.Value
			}
		}
	}
	return ps
}

// add declares the argument of parameter p and returns the expression
// reading it.
func (r *request) add(b *builder, p *openapi3.Parameter, required bool) string {
	base := argName(p.Name)
	if p.In == "header" {
		base = strings.ToLower(base) // If-None-Match reads as if_none_match
	}
	name := r.argFor(base, p.In)
	s := b.schemas.convert(paramSchema(p), nil)
	if p.Description != "" {
		describe(s, p.Description)
	}
	if p.Deprecated {
		describe(s, "Deprecated. "+cmpDesc(s))
	}
	set(r.props, name, s)
	if required || p.Required {
		r.required = append(r.required, name)
	}
	return "args." + name
}

// argFor reserves the argument name for base; a second argument of the
// same name is prefixed by where it goes (header_id beside the path's id).
func (r *request) argFor(base, in string) string {
	if r.args[base] {
		base = in + "_" + base
	}
	return r.args.unique(base)
}

func paramSchema(p *openapi3.Parameter) *openapi3.SchemaRef {
	if p.Schema != nil {
		return p.Schema
	}
	if _, mt := pickMedia(p.Content, false); mt != nil && mt.Schema != nil {
		return mt.Schema
	}
	return openapi3.NewStringSchema().NewRef()
}

// describe sets the description of the schema node s.
func describe(s *yaml.Node, text string) {
	d := str(lit(trim(text, 500)))
	for i := 0; i+1 < len(s.Content); i += 2 {
		if s.Content[i].Value == "description" {
			s.Content[i+1] = d
			return
		}
	}
	set(s, "description", d)
}

func cmpDesc(s *yaml.Node) string {
	if d := get(s, "description"); d != nil {
		return d.Value
	}
	return ""
}

// param maps a query, header or cookie parameter.
func (r *request) param(b *builder, p *openapi3.Parameter) {
	switch strings.ToLower(p.Name) {
	case "accept", "content-type", "authorization":
		if p.In == "header" {
			return // OpenAPI ignores these: the request sets them itself
		}
	}
	e := r.add(b, p, false)
	switch p.In {
	case "query":
		set(r.query, lit(p.Name), expr(e))
		r.queryStyle(p)
	case "header":
		set(r.headers, lit(p.Name), expr(e))
	case "cookie":
		r.cookies = append(r.cookies, fmt.Sprintf("%s == nil ? \"\" : %q + string(%s)", e, p.Name+"=", e))
	}
}

// queryStyle chooses how lists go into the query, from the array
// parameters' style and explode.
func (r *request) queryStyle(p *openapi3.Parameter) {
	s := paramSchema(p).Value
	if s == nil || s.Type == nil || !s.Type.Includes("array") {
		if p.Style == "deepObject" {
			r.notes = append(r.notes, fmt.Sprintf("query %s: deepObject style is sent as JSON text", p.Name))
		}
		return
	}
	style := "repeat"
	if p.Explode != nil && !*p.Explode {
		style = "comma"
	}
	switch p.Style {
	case "spaceDelimited", "pipeDelimited":
		r.notes = append(r.notes, fmt.Sprintf("query %s: %s style is sent as repeated parameters", p.Name, p.Style))
		style = "repeat"
	}
	if r.style != "" && r.style != style {
		r.notes = append(r.notes, fmt.Sprintf("query %s: sent as %s like the other lists, not %s", p.Name, r.style, style))
		return
	}
	r.style = style
}

// assemble writes the input schema and the handler.
func (r *request) assemble(backend, method, path string, body *yaml.Node) {
	r.schema = mapping()
	set(r.schema, "type", str("object"))
	set(r.schema, "properties", r.props)
	if len(r.required) > 0 {
		req := sequence()
		req.Style = yaml.FlowStyle
		for _, n := range r.required {
			req.Content = append(req.Content, str(n))
		}
		set(r.schema, "required", req)
	}
	h := mapping()
	set(h, "backend", str(backend))
	set(h, "method", str(method))
	set(h, "path", str(path))
	if len(r.query.Content) > 0 {
		set(h, "query", r.query)
		if r.style == "comma" {
			set(h, "query_style", str(r.style))
		}
	}
	if len(r.cookies) == 1 {
		set(r.headers, "Cookie", expr(r.cookies[0]))
	} else if len(r.cookies) > 1 {
		set(r.headers, "Cookie", expr("join(filter(["+strings.Join(r.cookies, ", ")+"], # != \"\"), \"; \")"))
	}
	if len(r.headers.Content) > 0 {
		set(h, "headers", r.headers)
	}
	if body != nil {
		set(h, "body", body)
	}
	r.handler = h
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
