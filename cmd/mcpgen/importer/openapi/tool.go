package openapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// maxDescription bounds a tool's description: models read every one on
// every turn.
const maxDescription = 1000

// tool converts one operation.
func (b *builder) tool(o *Operation) *Tool {
	name := b.toolNames.unique(toolName(o.ID, o.Method, o.Path))
	r := b.request(o)
	n := mapping()
	set(n, "name", str(name))
	if o.Summary != "" && len(o.Summary) <= 80 {
		set(n, "title", str(lit(strings.TrimSpace(o.Summary))))
	}
	set(n, "description", str(lit(description(o))))
	if tags := toolTags(o.Tags); tags != nil {
		set(n, "tags", tags)
	}
	set(n, "input_schema", r.schema)
	page := b.pagination(o, r)
	if out := b.outputSchema(o.op); out != nil && page == nil { // pages joined are {items, pages}
		set(n, "output_schema", out)
	}
	if notModified(o.op) {
		ok := sequence()
		ok.Style = yaml.FlowStyle
		ok.Content = []*yaml.Node{str("200-299"), str("304")}
		set(r.handler, "success", ok)
	}
	if page != nil {
		set(r.handler, "pagination", page)
	}
	set(n, "annotations", annotations(o.Method))
	set(n, "handler", r.handler)
	n.HeadComment = source(o, r.notes)
	return &Tool{Name: name, Operation: o, Node: n}
}

// toolTags are the operation's tags as tool tags (snake case, at most 64
// characters), for `serve --tags` and toolsets; nil without any.
func toolTags(tags []string) *yaml.Node {
	var l *yaml.Node
	seen := map[string]bool{}
	for _, t := range tags {
		t = snake(t)
		if len(t) > 64 {
			t = strings.TrimRight(t[:64], "_")
		}
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		if l == nil {
			l = sequence()
			l.Style = yaml.FlowStyle
		}
		l.Content = append(l.Content, str(t))
	}
	return l
}

// source is the comment above a tool: where it came from, and what of the
// operation could not be said.
func source(o *Operation, notes []string) string {
	s := o.Key()
	if o.ID != "" {
		s += " — operationId " + o.ID
	}
	for _, n := range notes {
		s += "\n" + n
	}
	return s
}

// SourceOf reads back the operation key ("GET /pets/{petId}") from the
// comment above a tool, or "".
func SourceOf(comment string) string {
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "#"))
		method, rest, _ := strings.Cut(line, " ")
		if !containsFold(methods, method) || !strings.HasPrefix(rest, "/") {
			continue
		}
		path, _, _ := strings.Cut(rest, " ")
		return method + " " + path
	}
	return ""
}

// description is the summary and the description, trimmed for a model.
func description(o *Operation) string {
	var parts []string
	if o.op.Deprecated {
		parts = append(parts, "Deprecated.")
	}
	if s := strings.TrimSpace(o.Summary); s != "" {
		if !strings.HasSuffix(s, ".") {
			s += "."
		}
		parts = append(parts, s)
	}
	if d := strings.TrimSpace(o.op.Description); d != "" && d != strings.TrimSpace(o.Summary) {
		parts = append(parts, "\n\n"+d)
	}
	d := trim(strings.Join(parts, " "), maxDescription)
	if d == "" || d == "Deprecated." {
		d = strings.TrimSpace(d + " Calls " + o.Key() + ".")
	}
	return d
}

// annotations follow from the method: GET reads, PUT can be repeated,
// DELETE destroys.
func annotations(method string) *yaml.Node {
	n := flowMapping()
	t, f := value(true), value(false)
	switch method {
	case "GET", "HEAD", "OPTIONS":
		set(n, "read_only", t)
	case "PUT":
		set(n, "read_only", f)
		set(n, "idempotent", t)
	case "DELETE":
		set(n, "read_only", f)
		set(n, "destructive", t)
		set(n, "idempotent", t)
	default:
		set(n, "read_only", f)
		set(n, "destructive", f)
	}
	return n
}

// outputSchema is the schema of the first success response with a JSON
// body, when that is an object; nil otherwise.
func (b *builder) outputSchema(op *openapi3.Operation) *yaml.Node {
	if op.Responses == nil {
		return nil
	}
	for _, code := range successCodes(op.Responses) {
		resp := op.Responses.Value(code)
		if resp == nil || resp.Value == nil {
			continue
		}
		_, mt := pickMedia(resp.Value.Content, true)
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			continue
		}
		s := b.outputs().convert(mt.Schema, nil)
		if t := get(s, "type"); t != nil && t.Value == "object" {
			return s
		}
		return nil
	}
	return nil
}

func (b *builder) outputs() schemas {
	s := b.schemas
	s.dir = output
	return s
}

// successCodes lists the 2xx responses in order, then 2XX, then default.
func successCodes(r *openapi3.Responses) []string {
	var codes []string
	for _, c := range sortedKeys(r.Map()) {
		if len(c) == 3 && c[0] == '2' && c[1] >= '0' && c[1] <= '9' {
			codes = append(codes, c)
		}
	}
	for _, c := range []string{"2XX", "2xx", "default"} {
		if r.Value(c) != nil {
			codes = append(codes, c)
		}
	}
	return codes
}

// pickMedia chooses the media type to use from content: JSON first, then a
// form, then multipart, then anything. Only JSON counts when jsonOnly.
func pickMedia(content openapi3.Content, jsonOnly bool) (string, *openapi3.MediaType) {
	keys := sortedKeys(content)
	for _, rank := range []func(string) bool{isJSONMedia, isForm, isMultipart, func(string) bool { return true }} {
		for _, k := range keys {
			if rank(mediaType(k)) {
				return mediaType(k), content[k]
			}
		}
		if jsonOnly {
			break
		}
	}
	return "", nil
}

func mediaType(k string) string {
	t, _, _ := strings.Cut(k, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

func isJSONMedia(t string) bool {
	return t == "application/json" || strings.HasSuffix(t, "+json") || t == "*/*" || t == "application/*"
}

func isForm(t string) bool      { return t == "application/x-www-form-urlencoded" }
func isMultipart(t string) bool { return t == "multipart/form-data" }
