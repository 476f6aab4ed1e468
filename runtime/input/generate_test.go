package input

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// TestArgsSchemaIsJSONMarshal checks that argsSchema writes the bytes
// json.Marshal writes, for the values it writes itself and those it leaves
// to json.Marshal.
func TestArgsSchemaIsJSONMarshal(t *testing.T) {
	var cases [][]*spec.Arg
	for _, s := range []string{"", "plain words", `q"uote`, `back\\slash`, "<b>&amp;", "a<b", "a>b", "a&b", "tab\t", "\x7f", "é", "\u2028", "a\xffb", "~ ok {}[]"} {
		cases = append(cases, []*spec.Arg{{Name: s, Description: s, Pattern: s, Header: s, Type: "array", Items: s, Required: true},
			{Name: "e", Enum: []any{s, int64(1)}, Default: s}})
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, -1e21, 123456789.125,
		math.MaxInt64, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(-1)} {
		cases = append(cases, []*spec.Arg{{Name: "n", Type: "number", Minimum: ptr(x), Maximum: ptr(-x), Default: x}})
	}
	cases = append(cases, nil, []*spec.Arg{},
		[]*spec.Arg{{Name: "id", Type: "integer", Required: true, Minimum: ptr(1.0)},
			{Name: "q", Description: "What to look for", MaxLength: ptr(200), MinLength: ptr(0)},
			{Name: "mode", Enum: []any{"fast", "full"}, Default: "fast"}},
		[]*spec.Arg{{Name: "o", Type: "object", Default: map[string]any{"k": []any{nil, true, 2.5}}, Enum: []any{}},
			{Name: "l", MinLength: ptr(-1), Default: []any(nil)}, {Name: "b", Type: "boolean", Default: false}})
	for i, args := range cases {
		if got, want := argsSchema(args), marshalArgs(args); !bytes.Equal(got, want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

// marshalArgs is argsSchema written with json.Marshal throughout, as it
// was: the reference for the bytes argsSchema writes.
func marshalArgs(args []*spec.Arg) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(a.Name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(marshalArg(a))
		if a.Required {
			required = append(required, a.Name)
		}
	}
	b.WriteByte('}')
	if len(required) > 0 {
		r, _ := json.Marshal(required)
		b.WriteString(`,"required":`)
		b.Write(r)
	}
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

func marshalArg(a *spec.Arg) []byte {
	type prop struct {
		Type        string   `json:"type"`
		Description string   `json:"description,omitempty"`
		Default     any      `json:"default,omitempty"`
		Enum        []any    `json:"enum,omitempty"`
		Minimum     *float64 `json:"minimum,omitempty"`
		Maximum     *float64 `json:"maximum,omitempty"`
		MinLength   *int     `json:"minLength,omitempty"`
		MaxLength   *int     `json:"maxLength,omitempty"`
		Pattern     string   `json:"pattern,omitempty"`
		Items       any      `json:"items,omitempty"`
		Header      string   `json:"x-mcp-header,omitempty"`
	}
	p := prop{Type: a.Type, Description: a.Description, Default: a.Default, Enum: a.Enum,
		Minimum: a.Minimum, Maximum: a.Maximum, MinLength: a.MinLength, MaxLength: a.MaxLength,
		Pattern: a.Pattern, Header: a.Header}
	if p.Type == "" {
		p.Type = "string"
	}
	if p.Type == "array" {
		items := a.Items
		if items == "" {
			items = "string"
		}
		p.Items = map[string]string{"type": items}
	}
	out, _ := json.Marshal(p)
	return out
}
