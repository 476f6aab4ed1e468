package input

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"

	"github.com/mcpgen/mcpgen/spec"
)

// argsSchema compiles the concise argument list to a JSON Schema.
func argsSchema(args []*spec.Arg) []byte {
	b := []byte(`{"type":"object","properties":{`)
	var required []string
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, a.Name)
		b = append(b, ':')
		b = append(b, argSchema(a)...)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b = append(b, '}')
	if len(required) > 0 {
		b = append(b, `,"required":[`...)
		for i, name := range required {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, name)
		}
		b = append(b, ']')
	}
	return append(b, `,"additionalProperties":false}`...)
}

// argSchema writes one argument's schema as json.Marshal writes a struct
// of its keywords in this order, each but type omitted when empty (nil
// when a value cannot be written, as json.Marshal fails then). It writes
// the common values itself and leaves the others to json.Marshal.
func argSchema(a *spec.Arg) []byte {
	b := appendJSONString([]byte(`{"type":`), cmp.Or(a.Type, "string"))
	ok := true
	if a.Description != "" {
		b = appendKey(b, "description")
		b = appendJSONString(b, a.Description)
	}
	if a.Default != nil {
		b = appendKey(b, "default")
		b, ok = appendJSONValue(b, a.Default, ok)
	}
	if len(a.Enum) > 0 {
		b = appendKey(b, "enum")
		b, ok = appendJSONValue(b, a.Enum, ok)
	}
	for _, n := range [...]struct {
		key string
		f   *float64
	}{{"minimum", a.Minimum}, {"maximum", a.Maximum}} {
		if n.f != nil {
			b = appendKey(b, n.key)
			b, ok = appendJSONFloat(b, *n.f, ok)
		}
	}
	for _, n := range [...]struct {
		key string
		n   *int
	}{{"minLength", a.MinLength}, {"maxLength", a.MaxLength}} {
		if n.n != nil {
			b = appendKey(b, n.key)
			b = strconv.AppendInt(b, int64(*n.n), 10)
		}
	}
	if a.Pattern != "" {
		b = appendKey(b, "pattern")
		b = appendJSONString(b, a.Pattern)
	}
	if a.Type == "array" {
		b = appendKey(b, "items")
		b = append(appendJSONString(append(b, `{"type":`...), cmp.Or(a.Items, "string")), '}')
	}
	if a.Header != "" {
		b = appendKey(b, "x-mcp-header")
		b = appendJSONString(b, a.Header)
	}
	if !ok {
		return nil
	}
	return append(b, '}')
}

// appendKey appends an object's next key, after its first.
func appendKey(b []byte, k string) []byte { return append(append(append(b, `,"`...), k...), `":`...) }

// appendJSONString appends s as json.Marshal writes it: quoted as it is
// when it is printable ASCII that JSON and HTML leave alone, as most
// names and descriptions are, and by json.Marshal otherwise.
func appendJSONString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			out, _ := json.Marshal(s) // a string always marshals
			return append(b, out...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}

// appendJSONFloat appends f as json.Marshal writes it: in full, with the
// fewest digits that read back as f, from 1e-6 up to 1e21 (and 0); by
// json.Marshal otherwise. ok becomes false when f cannot be written.
func appendJSONFloat(b []byte, f float64, ok bool) ([]byte, bool) {
	if abs := math.Abs(f); abs == 0 || abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64), ok
	}
	return appendJSONValue(b, f, ok)
}

// appendJSONValue appends json.Marshal's writing of v; ok becomes false
// when it fails.
func appendJSONValue(b []byte, v any, ok bool) ([]byte, bool) {
	out, err := json.Marshal(v)
	return append(b, out...), ok && err == nil
}
