package input

import (
	"cmp"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/spec"
)

// CompileArgs prepares the input schema generated from a tool's args, to be
// compiled on first use, like CompileLazily. Its decoded form is built from
// the args (argsDoc) instead of decoded back from the JSON just written,
// unless a value needs JSON's own treatment.
func (sc *Compiler) CompileArgs(name string, args []*spec.Arg) (*Schema, error) {
	raw := argsSchema(args)
	if doc, ok := argsDoc(args); ok {
		return sc.deferred(name, raw, doc), nil
	}
	return sc.CompileLazily(name, raw)
}

// argsDoc returns what DecodeJSON makes of argsSchema(args), without the
// JSON: the same maps, lists, strings, bools and numbers (int64 for whole
// ones, float64 for others). It returns false for what JSON would change or
// refuse, which is left to the JSON: a string that is not UTF-8, a number
// that is not finite, a value of another Go type.
func argsDoc(args []*spec.Arg) (map[string]any, bool) {
	props := make(map[string]any, len(args))
	var required []any
	for _, a := range args {
		p, ok := argDoc(a)
		if !ok || !utf8.ValidString(a.Name) {
			return nil, false
		}
		props[a.Name] = p
		if a.Required {
			required = append(required, a.Name)
		}
	}
	doc := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if required != nil {
		doc["required"] = required
	}
	return doc, true
}

// argDoc is argsDoc for one argument, as argSchema writes it.
func argDoc(a *spec.Arg) (map[string]any, bool) {
	p := map[string]any{"type": cmp.Or(a.Type, "string")}
	ok := true
	text := func(key, s string) {
		if s != "" {
			p[key] = s
			ok = ok && utf8.ValidString(s)
		}
	}
	number := func(key string, f *float64) {
		if f != nil {
			var v any
			v, ok = jsonValue(*f), ok && !math.IsNaN(*f) && !math.IsInf(*f, 0)
			p[key] = v
		}
	}
	length := func(key string, n *int) {
		if n != nil {
			p[key] = int64(*n)
		}
	}
	text("description", a.Description)
	if a.Default != nil {
		var v any
		v, ok = jsonCopy(a.Default, ok)
		p["default"] = v
	}
	if len(a.Enum) > 0 {
		var v any
		v, ok = jsonCopy(a.Enum, ok)
		p["enum"] = v
	}
	number("minimum", a.Minimum)
	number("maximum", a.Maximum)
	length("minLength", a.MinLength)
	length("maxLength", a.MaxLength)
	text("pattern", a.Pattern)
	if a.Type == "array" {
		items := cmp.Or(a.Items, "string")
		p["items"] = map[string]any{"type": items}
		ok = ok && utf8.ValidString(items)
	}
	text("x-mcp-header", a.Header)
	return p, ok && utf8.ValidString(p["type"].(string))
}

// jsonCopy copies a value decoded from YAML as a JSON round trip would give
// it back (see argsDoc); ok is false, whatever it was, when it cannot.
func jsonCopy(v any, ok bool) (any, bool) {
	switch v := v.(type) {
	case nil, bool, int64:
		return v, ok
	case string:
		return v, ok && utf8.ValidString(v)
	case float64:
		return jsonValue(v), ok && !math.IsNaN(v) && !math.IsInf(v, 0)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i], ok = jsonCopy(e, ok)
		}
		return out, ok
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k], ok = jsonCopy(e, ok && utf8.ValidString(k))
		}
		return out, ok
	}
	return nil, false
}

// jsonValue is what handlers.Numbers makes of f written as JSON, which
// writes it in full below 1e21, with the fewest digits that read back as f:
// an int64 when those digits are one, f otherwise.
func jsonValue(f float64) any {
	switch {
	case f != math.Trunc(f) || math.Abs(f) >= 1e21: // NaN and ±Inf too
		return f
	case math.Abs(f) <= 1<<53: // whole numbers are exact up to there
		return int64(f)
	}
	if i, err := strconv.ParseInt(strconv.FormatFloat(f, 'f', -1, 64), 10, 64); err == nil {
		return i
	}
	return f
}
