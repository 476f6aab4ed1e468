package runtime

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/spec"
)

// argDefaultProblem checks the default of an argument in the concise form
// against the constraints its generated schema will carry (type, enum,
// bounds, lengths, pattern, items), as that schema would.
func argDefaultProblem(a *spec.Arg) string {
	d := a.Default
	if d == nil {
		return ""
	}
	typ := cmp.Or(a.Type, "string")
	if !hasType(d, typ) {
		return fmt.Sprintf("got %s, want %s", jsonType(d), typ)
	}
	if len(a.Enum) > 0 && !slices.ContainsFunc(a.Enum, func(e any) bool { return sameValue(e, d) }) {
		return fmt.Sprintf("want one of %s", formatEnum(a.Enum))
	}
	if n, ok := number(d); ok {
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
			if !hasType(e, items) {
				return fmt.Sprintf("item %d: got %s, want %s", i, jsonType(e), items)
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

// jsonType names the JSON type of a value decoded from YAML or JSON.
func jsonType(x any) string {
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

// hasType reports whether x is valid for the JSON Schema type typ.
func hasType(x any, typ string) bool {
	got := jsonType(x)
	return got == typ || (typ == "number" && got == "integer")
}

func number(x any) (float64, bool) {
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
	if x, ok := number(a); ok {
		y, ok := number(b)
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
