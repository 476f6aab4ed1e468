// Package errcheck checks, when a config loads, what an error rule's
// message template reads of the response: a key the response never has
// (.response.bdy, a header name with capitals) and, when the rule declares
// its body's JSON Schema, a key that body cannot have or a field read from
// a value that is not an object; the rule's `when` expression is checked
// against that schema too. A message that fails at run time is replaced
// by the API's own error, and a `when` that fails does not match; this
// finds in `validate` what can be found before.
package errcheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"github.com/mcpgen/mcpgen/templates"
)

// Finding is a reference of a template that cannot resolve (an error) or
// may not (a warning), at byte Off of the template's text.
type Finding struct {
	Off     int
	Msg     string
	Warning bool
}

// responseKeys are the keys of `.response`.
var responseKeys = []string{"body", "headers", "status"}

// Message checks the fields below .response that text reads where dot is
// the template's data (not inside range or with). body is the declared
// JSON Schema of the response's body, as decoded from YAML; nil when none
// is declared, and then the body's keys are not checked.
func Message(text string, body map[string]any) []Finding {
	w := &walker{body: body, then: "the message fails, and the API's error is returned,"}
	for _, f := range templates.DataFields(text) {
		w.field(f.Off, f.Ident)
	}
	return w.found
}

// walker collects the findings of one message.
type walker struct {
	body  map[string]any
	then  string // what happens when a key is not there
	found []Finding
}

// When checks the chains a rule's `when` expression reads below
// `response` (eval.Value.Reads) against the declared JSON Schema of the
// body; the expression's types checked the rest already. The offsets are
// those of reads, in the expression's YAML text.
func When(reads []eval.Read, body map[string]any) []Finding {
	w := &walker{body: body, then: "the rule does not apply"}
	for _, r := range reads {
		if body == nil || len(r.Path) < 2 || r.Path[0] != "body" {
			continue
		}
		w.schema(body, append([]string{"response"}, r.Path...), 2, func(i int) int { return r.Offs[i-1] })
	}
	return w.found
}

// field checks a chain .a.b.c that starts at byte start.
func (w *walker) field(start int, ident []string) {
	if len(ident) < 2 || ident[0] != "response" {
		return
	}
	at := func(i int) int { // the dot before ident[i]
		off := start
		for _, s := range ident[:i] {
			off += len(s) + 1
		}
		return off
	}
	key := ident[1]
	switch {
	case !slices.Contains(responseKeys, key):
		w.add(at(1), false, fmt.Sprintf(".response has no %q; it has %s%s", key, strings.Join(responseKeys, ", "),
			hint(suggest.DidYouMean(key, responseKeys))))
	case key == "status" && len(ident) > 2:
		w.add(at(2), false, ".response.status is a number: it has no fields")
	case key == "headers" && len(ident) > 2 && strings.ToLower(ident[2]) != ident[2]:
		w.add(at(2), false, fmt.Sprintf(".response.headers names headers in lowercase: write .response.headers.%s", strings.ToLower(ident[2])))
	case key == "headers" && len(ident) > 3:
		w.add(at(3), false, fmt.Sprintf(".response.headers.%s is text: it has no fields", ident[2]))
	case key == "body" && w.body != nil:
		w.schema(w.body, ident, 2, at)
	}
}

// schema follows ident[i:] into the declared schema s of ident[:i].
func (w *walker) schema(s map[string]any, ident []string, i int, at func(int) int) {
	for ; i < len(ident); i++ {
		if s == nil || s["$ref"] != nil || s["anyOf"] != nil || s["oneOf"] != nil || s["allOf"] != nil {
			return // not followed: nothing is known
		}
		path := "." + strings.Join(ident[:i], ".")
		if t := eval.SchemaTypes(s["type"]); t != nil && !slices.Contains(t, "object") {
			w.add(at(i), false, fmt.Sprintf("%s is %s in the declared body (body_schema): it has no fields; "+
				"read its elements instead", path, strings.Join(t, " or ")))
			return
		}
		props, _ := s["properties"].(map[string]any)
		p, ok := props[ident[i]]
		if !ok {
			w.missing(s, props, path, ident[i], at(i))
			return
		}
		s, _ = p.(map[string]any)
	}
}

// missing reports a key the declared properties do not have: an error when
// the schema allows no others, a warning when it does.
func (w *walker) missing(s, props map[string]any, path, key string, off int) {
	known := make([]string, 0, len(props))
	for k := range props {
		known = append(known, k)
	}
	sort.Strings(known)
	if len(known) == 0 && s["additionalProperties"] != false {
		return // an object of any keys
	}
	list := "none"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	if s["additionalProperties"] == false {
		w.add(off, false, fmt.Sprintf("%s has no %q in the declared body (body_schema), which allows only %s%s",
			path, key, list, hint(suggest.DidYouMean(key, known))))
		return
	}
	w.add(off, true, fmt.Sprintf("%s declares no %q in body_schema (it declares %s); %s when the body has none%s",
		path, key, list, w.then, hint(suggest.DidYouMean(key, known))))
}

func (w *walker) add(off int, warning bool, msg string) {
	w.found = append(w.found, Finding{Off: off, Msg: msg, Warning: warning})
}

func hint(h string) string {
	if h == "" {
		return ""
	}
	return "; " + h
}
