// Package paramheader checks the x-mcp-header annotations of a tool's
// input schema by the spec's rules (server/tools.mdx, x-mcp-header): the
// arguments a client mirrors in HTTP headers.
package paramheader

import (
	"fmt"
	"strings"
)

// Check checks one annotation, at, of the property prop: a token, unique regardless of case,
// on a string, integer or boolean.
func Check(at string, h any, prop map[string]any, seen map[string]string, report func(string, string)) {
	name, ok := h.(string)
	switch {
	case !ok || name == "":
		report(at, "x-mcp-header must be a non-empty header name")
		return
	case strings.IndexFunc(name, func(r rune) bool { return !isTChar(r) }) >= 0:
		report(at, fmt.Sprintf("header name %q has characters a header name cannot have; use letters, digits and !#$%%&'*+-.^_`|~", name))
		return
	}
	if prev, dup := seen[strings.ToLower(name)]; dup {
		report(at, fmt.Sprintf("header name %q is used twice in this tool (also %q; names ignore case)", name, prev))
	}
	seen[strings.ToLower(name)] = name
	switch prop["type"] {
	case "string", "integer", "boolean":
	default:
		report(at, fmt.Sprintf("header %q is on an argument of type %v; only string, integer and boolean arguments can be mirrored in a header", name, prop["type"]))
	}
}

// isTChar reports whether c may appear in an HTTP header name (RFC 9110
// tchar).
func isTChar(c rune) bool {
	return c < 128 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
		strings.ContainsRune("!#$%&'*+-.^_`|~", c))
}

// Misplaced reports whether an input schema has x-mcp-header annotations
// anywhere but on properties reached from its root through `properties`.
func Misplaced(doc map[string]any) bool {
	props, _ := doc["properties"].(map[string]any)
	return countHeaders(doc) > countChained(props)
}

// countHeaders counts the x-mcp-header annotations anywhere in v.
func countHeaders(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["x-mcp-header"]; ok {
			n++
		}
		for _, e := range v {
			n += countHeaders(e)
		}
	case []any:
		for _, e := range v {
			n += countHeaders(e)
		}
	}
	return n
}

// countChained counts the annotations on properties chains from props.
func countChained(props map[string]any) int {
	n := 0
	for _, p := range props {
		p, _ := p.(map[string]any)
		if _, ok := p["x-mcp-header"]; ok {
			n++
		}
		sub, _ := p["properties"].(map[string]any)
		n += countChained(sub)
	}
	return n
}
