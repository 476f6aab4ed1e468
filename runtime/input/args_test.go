package input

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/spec"
)

// TestDecodeArgs: a valid call's arguments come back with numbers typed as
// the schema says and defaults filled; an invalid one gets the validator's
// message.
func TestDecodeArgs(t *testing.T) {
	t.Parallel()
	ten := 10.0
	s, err := NewCompiler().CompileArgs("t", []*spec.Arg{{Name: "n", Type: "number", Required: true, Maximum: &ten},
		{Name: "k", Type: "integer"}, {Name: "mode", Enum: []any{"a", "b"}, Default: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	a := NewArgs(s, nil)
	got, err := a.Decode([]byte(`{"n": 3, "k": 4}`))
	want := map[string]any{"n": 3.0, "k": int64(4), "mode": "a"}
	if err != nil || !reflect.DeepEqual(want, got) {
		t.Errorf("Decode = %#v, %v; want %#v", got, err, want)
	}
	_, err = a.Decode([]byte(`{"n": 11}`))
	if want := "invalid arguments: at /n: maximum: got 11, want 10"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestDecodeHostileArgs pins the verdict on arguments at the edges of the
// JSON grammar, of the numbers and of the strings.
func TestDecodeHostileArgs(t *testing.T) {
	t.Parallel()
	s, err := NewCompiler().Compile("t", []byte(`{"type":"object","additionalProperties":false,"required":["i"],"properties":{
		"i":{"type":"integer","minimum":-5,"maximum":9007199254740993},
		"n":{"type":"number","exclusiveMinimum":0.1,"maximum":1e300},
		"s":{"type":"string","maxLength":3,"format":"date-time","x-mcp-header":"X-S"},
		"e":{"type":"integer","enum":[1,2.0,"3"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := NewArgs(s, nil)
	for _, tt := range []struct {
		args  string
		valid bool
	}{
		{`{"i":1}`, true},
		{` {"i" : -0 , "n":1e2}	`, true},
		{`{"i":1.0}`, true},
		{`{"i":1e0}`, true},
		{`{"i":9007199254740993}`, true},
		{`{"i":9007199254740994}`, false},
		{`{"i":-6}`, false},
		{`{"i":1,"n":0.1}`, false},
		{`{"i":1,"n":0.10000000000000001}`, true}, // compared exactly, not as a float64
		{`{"i":1,"n":0.2}`, true},
		{`{"i":1,"n":1e400}`, false},
		{`{"i":1,"n":1e99999}`, false},
		{`{"i":1,"s":"\u00e9t\u00e9"}`, true},
		{`{"i":1,"s":"\ud800"}`, true},
		{"{\"i\":1,\"s\":\"\xff\xfe\"}", true},
		{`{"i":1,"s":"abcd"}`, false},
		{`{"i":1,"e":1}`, true},
		{`{"i":1,"e":2}`, true},
		{`{"i":1,"e":3}`, false},
		{`{"i":1}}`, false},
		{`{"i":1} x`, false},
		{`{"i":1,}`, false},
		{`{"i":01}`, false},
		{`{"\u0069":1}`, true},
		{`{"s":"a"}`, false},
		{`{"i":1,"z":[[[[]]]]}`, false},
		{`[]`, false},
		{`"x"`, false},
		{`{"i":1,"s":` + strings.Repeat("[", 10000) + `}`, false},
	} {
		_, err := a.Decode([]byte(tt.args))
		if (err == nil) != tt.valid || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("%.60s: %v; want valid %v", tt.args, err, tt.valid)
		}
	}
}

// TestBoundArgsCannotBePassed: an argument the server sets from the caller
// is refused when a client passes it.
func TestBoundArgsCannotBePassed(t *testing.T) {
	t.Parallel()
	s, err := NewCompiler().Compile("t", []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := NewArgs(s, []string{"user"})
	if _, err := a.Decode([]byte(`{"q":"x","user":"root"}`)); err == nil || !strings.Contains(err.Error(), "user is set by the server") {
		t.Errorf("a bound argument passed: %v", err)
	}
	if _, err := a.Decode([]byte(`{"q":"x"}`)); err != nil {
		t.Error(err)
	}
}

// TestHugeExponentIsAnError checks that a number whose exponent math/big
// refuses, compared with a bound, is an argument error: the validator
// panics on it, which took the whole server down.
func TestHugeExponentIsAnError(t *testing.T) {
	t.Parallel()
	zero := 0.0
	s, err := NewCompiler().CompileArgs("t", []*spec.Arg{{Name: "n", Type: "number", Minimum: &zero}})
	if err != nil {
		t.Fatal(err)
	}
	a := NewArgs(s, nil)
	for _, n := range []string{"1e1000001", "-1e1000001", "1e-1000001", "1.5e99999999999999999999"} {
		_, err := a.Decode([]byte(`{"n":` + n + `}`))
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "out of the range") {
			t.Errorf("n = %s: %v", n, err)
		}
	}
}

// FuzzDecodeArgs: whatever the arguments, Decode answers, and every error
// it gives wraps ErrInvalid.
func FuzzDecodeArgs(f *testing.F) {
	s, err := NewCompiler().Compile("t", []byte(`{"type":"object","required":["i"],"properties":{
		"i":{"type":"integer","maximum":10},"s":{"type":"string","maxLength":3},"l":{"type":"array","items":{"type":"number"}}}}`))
	if err != nil {
		f.Fatal(err)
	}
	a := NewArgs(s, []string{"user"})
	for _, seed := range []string{`{"i":1}`, `{"i":1e9}`, `{"s":"abcd"}`, `{"l":[1,2.5,"x"]}`, `{"user":1}`, `[`, `null`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if _, err := a.Decode(raw); err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: %v does not wrap ErrInvalid", raw, err)
		}
	})
}
