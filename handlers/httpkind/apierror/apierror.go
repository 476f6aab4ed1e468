// Package apierror reads what an API's JSON error body says: its message
// and what was wrong with which field, in the shapes real APIs use
// (GitHub, RFC 9457 problem details, JSON:API, FastAPI).
package apierror

import (
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/eval"
)

// maxFieldErrors bounds the field errors named in a default error.
const maxFieldErrors = 10

// listKeys are where error bodies list what was wrong with which field:
// `errors` (GitHub, JSON:API, RFC 9457's example), `invalid-params` (RFC
// 7807's), `detail` (FastAPI), `violations` and `fieldErrors`.
var listKeys = []string{"errors", "invalid-params", "invalid_params", "invalidParams", "detail",
	"violations", "fieldErrors", "field_errors"}

// textKeys name an error's message; fieldKeys the field it is about.
var (
	textKeys  = []string{"message", "detail", "reason", "msg", "description", "title", "code", "type"}
	fieldKeys = []string{"field", "param", "name", "property", "propertyPath", "path", "pointer", "loc",
		"parameter", "source"}
)

// Summary is the message of a JSON error body followed by what it
// says of each field: "Validation Failed; title: missing_field;
// age: must be a positive integer". Empty when it finds neither.
func Summary(m map[string]any) string {
	main := topMessage(m)
	items := fieldErrors(m)
	switch {
	case len(items) == 0:
		return main
	case main == "" || len(items) == 1 && items[0] == main:
		return strings.Join(items, "; ")
	}
	return main + "; " + strings.Join(items, "; ")
}

// topMessage is the body's own message: a string, an object's message,
// or the first item of a list no field error came from.
func topMessage(m map[string]any) string {
	for _, k := range []string{"message", "error_description", "detail", "error", "title", "errors", "msg"} {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case map[string]any:
			if s := Summary(v); s != "" {
				return s
			}
		case []any:
			if len(v) > 0 && !slices.Contains(listKeys, k) {
				return fieldError(v[0])
			}
		}
	}
	return ""
}

// fieldErrors lists the errors of the first list of error objects in m.
func fieldErrors(m map[string]any) []string {
	for _, k := range listKeys {
		list, ok := m[k].([]any)
		if !ok || len(list) == 0 {
			continue
		}
		var out []string
		for _, x := range list {
			if s := fieldError(x); s != "" && len(out) < maxFieldErrors {
				out = append(out, s)
			}
		}
		if len(list) > maxFieldErrors {
			out = append(out, "…")
		}
		return out
	}
	return nil
}

// fieldError is one item of such a list: "field: message", or what it
// has of those.
func fieldError(x any) string {
	e, ok := x.(map[string]any)
	if !ok {
		if s, ok := x.(string); ok {
			return s
		}
		return ""
	}
	field := fieldName(e)
	var text string
	for _, k := range textKeys {
		if s, ok := e[k].(string); ok && s != "" {
			text = s
			break
		}
	}
	switch {
	case field == "":
		return text
	case text == "":
		return field
	}
	return field + ": " + text
}

// fieldName is the field an error item is about: a name, a JSON pointer
// (#/age, /data/attributes/title) or a path (["body", "age"]).
func fieldName(e map[string]any) string {
	for _, k := range fieldKeys {
		switch v := e[k].(type) {
		case string:
			if v = strings.TrimLeft(v, "#/"); v != "" {
				return strings.ReplaceAll(v, "/", ".")
			}
		case []any:
			parts := make([]string, 0, len(v))
			for _, p := range v {
				if s := eval.Format(p); s != "body" || len(parts) > 0 {
					parts = append(parts, s)
				}
			}
			if len(parts) > 0 {
				return strings.Join(parts, ".")
			}
		case map[string]any:
			if s := fieldName(v); s != "" {
				return s
			}
		}
	}
	return ""
}
