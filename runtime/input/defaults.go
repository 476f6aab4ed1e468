package input

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/spec"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ArgDefaultProblem checks the default of an argument in the concise form
// against the constraints its generated schema will carry (type, enum,
// bounds, lengths, pattern, items), as that schema would.
func ArgDefaultProblem(a *spec.Arg) string {
	d := a.Default
	if d == nil {
		return ""
	}
	typ := cmp.Or(a.Type, "string")
	if !HasType(d, typ) {
		return fmt.Sprintf("got %s, want %s", JSONType(d), typ)
	}
	if len(a.Enum) > 0 && !slices.ContainsFunc(a.Enum, func(e any) bool { return sameValue(e, d) }) {
		return fmt.Sprintf("want one of %s", formatEnum(a.Enum))
	}
	if n, ok := Number(d); ok {
		switch {
		case a.Minimum != nil && n < *a.Minimum:
			return fmt.Sprintf("below the minimum %v", *a.Minimum)
		case a.Maximum != nil && n > *a.Maximum:
			return fmt.Sprintf("above the maximum %v", *a.Maximum)
		}
	}
	if s, ok := d.(string); ok {
		return stringProblem(a, s)
	}
	if l, ok := d.([]any); ok {
		items := cmp.Or(a.Items, "string")
		for i, e := range l {
			if !HasType(e, items) {
				return fmt.Sprintf("item %d: got %s, want %s", i, JSONType(e), items)
			}
		}
	}
	return ""
}

func stringProblem(a *spec.Arg, s string) string {
	n := utf8.RuneCountInString(s)
	switch {
	case a.MinLength != nil && n < *a.MinLength:
		return fmt.Sprintf("shorter than %d characters", *a.MinLength)
	case a.MaxLength != nil && n > *a.MaxLength:
		return fmt.Sprintf("longer than %d characters", *a.MaxLength)
	}
	if a.Pattern != "" {
		if re, err := regexp.Compile(a.Pattern); err == nil && !re.MatchString(s) {
			return fmt.Sprintf("does not match the pattern %q", a.Pattern)
		}
	}
	return ""
}

// JSONType names the JSON type of a value decoded from YAML or JSON.
func JSONType(x any) string {
	switch x := x.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64, int:
		return "integer"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return "an unknown type"
}

// HasType reports whether x is valid for the JSON Schema type typ.
func HasType(x any, typ string) bool {
	got := JSONType(x)
	return got == typ || (typ == "number" && got == "integer")
}

// Number returns a number decoded from YAML or JSON as a float64.
func Number(x any) (float64, bool) {
	switch x := x.(type) {
	case int64:
		return float64(x), true
	case int:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// sameValue compares as JSON does: 1 and 1.0 are the same number.
func sameValue(a, b any) bool {
	if x, ok := Number(a); ok {
		y, ok := Number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func formatEnum(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// DefaultProblem is a property whose default its schema rejects.
type DefaultProblem struct{ Name, Msg string }

// DefaultProblems validates the defaults of the schema's top-level
// properties, together, and returns what is wrong with each, by name.
func (s *Schema) DefaultProblems() []DefaultProblem {
	props, _ := s.Doc()["properties"].(map[string]any)
	defaults := map[string]any{}
	for name, p := range props {
		if p, ok := p.(map[string]any); ok {
			if d, ok := p["default"]; ok {
				defaults[name] = d
			}
		}
	}
	if len(defaults) == 0 {
		return nil
	}
	if err := s.ready(); err != nil {
		return nil // reported where the schema is checked
	}
	var ve *jsonschema.ValidationError
	if err := s.compiled.Validate(toValidatable(defaults)); !errors.As(err, &ve) {
		return nil
	}
	found := map[string][]string{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		// problems of the object as a whole (a required property) are not
		// the defaults' own
		if len(e.Causes) == 0 && len(e.InstanceLocation) > 0 {
			name := e.InstanceLocation[0]
			msg := e.ErrorKind.LocalizedString(printer)
			if len(e.InstanceLocation) > 1 {
				msg = fmt.Sprintf("at /%s: %s", strings.Join(e.InstanceLocation[1:], "/"), msg)
			}
			found[name] = append(found[name], msg)
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	var out []DefaultProblem
	for _, name := range slices.Sorted(maps.Keys(found)) {
		out = append(out, DefaultProblem{name, strings.Join(slices.Compact(found[name]), "; ")})
	}
	return out
}
