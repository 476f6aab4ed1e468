package openapi

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// Names that mark a list operation's cursor: the query parameter that
// takes it, and the property of the response that gives the next one.
var (
	cursorParams = []string{"cursor", "page_token", "pageToken", "after", "starting_after", "next_token",
		"continuation_token", "continuationToken"}
	nextProps = []string{"next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token",
		"nextToken", "continuation_token", "continuationToken", "cursor"}
	itemProps = []string{"data", "items", "results", "values", "entries", "records"}
)

// notModified reports whether an operation documents 304 Not Modified: a
// success (the client's copy is current), not an error.
func notModified(op *openapi3.Operation) bool {
	return op.Responses != nil && op.Responses.Value("304") != nil
}

// pagination is the follow pagination of a GET whose first success
// response is a list and links to the next page (a Link header) or names
// the next cursor (a property such as next_cursor, read back through a
// query parameter such as cursor); nil for any other operation.
func (b *builder) pagination(o *Operation, r *request) *yaml.Node {
	if o.Method != "GET" || o.op.Responses == nil {
		return nil
	}
	for _, code := range successCodes(o.op.Responses) {
		resp := o.op.Responses.Value(code)
		if resp == nil || resp.Value == nil {
			continue
		}
		_, mt := pickMedia(resp.Value.Content, true)
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			return nil
		}
		items := itemsOf(mt.Schema.Value)
		if items == "" {
			return nil
		}
		page := mapping()
		page.Style = yaml.FlowStyle
		set(page, "mode", str("follow"))
		switch next, param := nextCursor(mt.Schema.Value, r); {
		case hasHeader(resp.Value.Headers, "Link"):
			set(page, "link", str("next"))
		case next != "" && param != "":
			set(page, "next", expr("response.body."+next))
			set(page, "cursor_param", str(param))
		default:
			return nil
		}
		set(page, "items", expr(items))
		return page
	}
	return nil
}

// itemsOf is the expression of a page's items: the body when it is a
// list, else its list property (data, items... or the only list).
func itemsOf(s *openapi3.Schema) string {
	if s.Type != nil && s.Type.Includes("array") {
		return "response.body"
	}
	var lists []string
	for name, p := range s.Properties {
		if p != nil && p.Value != nil && p.Value.Type != nil && p.Value.Type.Includes("array") {
			lists = append(lists, name)
		}
	}
	for _, name := range itemProps {
		if slices.Contains(lists, name) {
			return "response.body." + name
		}
	}
	if len(lists) == 1 && argName(lists[0]) == lists[0] {
		return "response.body." + lists[0]
	}
	return ""
}

// nextCursor finds the response property giving the next cursor and the
// query parameter taking it.
func nextCursor(s *openapi3.Schema, r *request) (next, param string) {
	for _, name := range nextProps {
		if _, ok := s.Properties[name]; ok {
			next = name
			break
		}
	}
	for i := 0; i+1 < len(r.query.Content); i += 2 {
		if k := r.query.Content[i].Value; slices.Contains(cursorParams, k) {
			return next, k
		}
	}
	return next, ""
}

// hasHeader reports whether a response documents the header name.
func hasHeader(h openapi3.Headers, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}
