package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// checkAgreement decodes args with argCheck and the general way (decoder,
// validator, handlers.Numbers) and fails if argCheck accepts what the
// validator rejects, or decodes it differently. It reports whether argCheck
// accepted.
func checkAgreement(t *testing.T, a *Args, args []byte) bool {
	t.Helper()
	quick, ok := a.quick(args)
	if !ok {
		return false
	}
	full, err := decodeObject(args)
	if err == nil {
		err = a.schema.validateNumbers(full)
	}
	if err != nil {
		t.Fatalf("argCheck accepts what the validator rejects (%v)\nschema: %s\nargs: %q", err, a.schema.raw, args)
	}
	handlers.Numbers(full)
	if !sameDecoded(full, quick) {
		t.Fatalf("argCheck decodes differently\nschema: %s\nargs: %q\nfull:  %#v\nquick: %#v", a.schema.raw, args, full, quick)
	}
	return true
}

// sameDecoded compares decoded JSON exactly: the same Go types, and floats
// bit for bit (-0 is not 0).
func sameDecoded(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameDecoded(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for i := range a {
			if !sameDecoded(a[i], b[i]) {
				return false
			}
		}
		return true
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	}
	return a == b
}

// argCheckCompiler compiles the schemas of the tests; it is replaced now
// and then, for a compiler keeps every schema it compiled.
var argCheckCompiler struct {
	sync.Mutex
	c *Compiler
	n int
}

func compileForCheck(t testing.TB, raw []byte) *Args {
	t.Helper()
	argCheckCompiler.Lock()
	if argCheckCompiler.n++; argCheckCompiler.c == nil || argCheckCompiler.n%500 == 0 {
		argCheckCompiler.c = NewCompiler()
	}
	sc := argCheckCompiler.c
	argCheckCompiler.Unlock()
	s, err := sc.Compile("t", raw)
	if err != nil {
		return nil // a schema the fuzzer broke; tools cannot have it
	}
	return NewArgs(s, nil)
}

// TestArgCheckAgreesWithValidator runs random schemas of the subset
// argCheck implements (and a few keywords beyond) against random and
// hostile arguments.
func TestArgCheckAgreesWithValidator(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	schemas, accepted, calls := 0, 0, 0
	for range 400 {
		raw := randomSchema(r)
		s := compileForCheck(t, raw)
		if s == nil {
			t.Fatalf("a generated schema does not compile: %s", raw)
		}
		if s.quick([]byte(`{}`)); s.check != nil {
			schemas++
		}
		for range 50 {
			calls++
			if checkAgreement(t, s, randomArgs(r, s.schema.doc)) {
				accepted++
			}
		}
	}
	t.Logf("%d of 400 schemas checked quickly; %d of %d calls accepted quickly", schemas, accepted, calls)
	if schemas < 200 || accepted < calls/10 {
		t.Errorf("the quick way is too rarely taken to be tested: %d schemas, %d calls", schemas, accepted)
	}
}

// FuzzArgCheck is TestArgCheckAgreesWithValidator driven by the fuzzer:
// seed picks one of 65,536 schemas, args are any bytes.
func FuzzArgCheck(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for seed := range uint64(40) {
		raw := randomSchema(rand.New(rand.NewPCG(seed, 0)))
		doc, err := DecodeJSON(raw)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed, randomArgs(r, doc.(map[string]any)))
	}
	var schemas sync.Map // seed → *Args: compiling is most of the work
	f.Fuzz(func(t *testing.T, seed uint64, args []byte) {
		seed %= 1 << 16
		v, ok := schemas.Load(seed)
		if !ok {
			v, _ = schemas.LoadOrStore(seed, compileForCheck(t, randomSchema(rand.New(rand.NewPCG(seed, 0)))))
		}
		if s := v.(*Args); s != nil {
			checkAgreement(t, s, args)
		}
	})
}

// TestArgCheckTakesGeneratedSchemas checks that the schemas mcpgen makes
// from an argument list take the quick way, and that a keyword argCheck
// does not implement sends a schema the general way.
func TestArgCheckTakesGeneratedSchemas(t *testing.T) {
	t.Parallel()
	one, ten := 1, 10
	low, high := -1.5, 100.0
	args := []*spec.Arg{
		{Name: "q", Required: true, MinLength: &one, MaxLength: &ten, Pattern: "^[a-z]+$", Description: "d"},
		{Name: "n", Type: "integer", Minimum: &low, Maximum: &high, Default: int64(3)},
		{Name: "x", Type: "number", Header: "X-N"},
		{Name: "mode", Enum: []any{"fast", "exact"}, Default: "fast"},
		{Name: "on", Type: "boolean"},
		{Name: "tags", Type: "array", Items: "integer"},
	}
	s := compileForCheck(t, argsSchema(args))
	got, ok := s.quick([]byte(`{"q":"abc","n":7,"x":2.5,"mode":"exact","on":true,"tags":[1,2]}`))
	want := map[string]any{"q": "abc", "n": int64(7), "x": 2.5, "mode": "exact", "on": true, "tags": []any{int64(1), int64(2)}}
	if !ok || !sameDecoded(want, got) {
		t.Errorf("quick = %#v, %v; want %#v", got, ok, want)
	}
	for _, extra := range []string{`"propertyNames":{"maxLength":3}`, `"$schema":"https://json-schema.org/draft/2020-12/schema"`,
		`"properties":{"q":{"type":"string","const":"a"}}`, `"properties":{"q":{"type":["string","null"]}}`} {
		s := compileForCheck(t, []byte(`{"type":"object",`+extra+`}`))
		if s.quick([]byte(`{}`)); s.check != nil {
			t.Errorf("a schema with %s takes the quick way", extra)
		}
	}
}

// TestDecodeArgsQuickWay checks that a valid call of a tool with generated
// arguments never needs the full validator (its lazy compilation does not
// happen), and that an invalid one gets the validator's message.
func TestDecodeArgsQuickWay(t *testing.T) {
	t.Parallel()
	ten := 10.0
	s, err := NewCompiler().CompileArgs("t", []*spec.Arg{{Name: "n", Type: "number", Required: true, Maximum: &ten},
		{Name: "mode", Enum: []any{"a", "b"}, Default: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	a := NewArgs(s, nil)
	got, err := a.Decode([]byte(`{"n": 3}`))
	want := map[string]any{"n": 3.0, "mode": "a"}
	if err != nil || !sameDecoded(want, got) {
		t.Errorf("Decode = %#v, %v; want %#v", got, err, want)
	}
	if s.compiled != nil {
		t.Error("a valid call compiled the full validator")
	}
	_, err = a.Decode([]byte(`{"n": 11}`))
	if want := "invalid arguments: at /n: maximum: got 11, want 10"; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestArgCheckHostileArgs pins the verdict on arguments at the edges of
// the grammar and of the numbers: argCheck may only accept the valid ones.
func TestArgCheckHostileArgs(t *testing.T) {
	t.Parallel()
	s := compileForCheck(t, []byte(`{"type":"object","additionalProperties":false,"required":["i"],"properties":{
		"i":{"type":"integer","minimum":-5,"maximum":9007199254740993},
		"n":{"type":"number","exclusiveMinimum":0.1,"maximum":1e300},
		"s":{"type":"string","maxLength":3,"format":"date-time","x-mcp-header":"X-S"},
		"e":{"type":"integer","enum":[1,2.0,"3"]}}}`))
	for _, tt := range []struct {
		args  string
		quick bool // whether argCheck takes it: the general way is as correct, only slower
	}{
		{`{"i":1}`, true},
		{` {"i" : -0 , "n":1e2}	`, true},
		{`{"i":1.0}`, false},
		{`{"i":1e0}`, false},
		{`{"i":9007199254740993}`, true},
		{`{"i":9007199254740994}`, false},
		{`{"i":1,"n":0.1}`, false},
		{`{"i":1,"n":0.10000000000000001}`, false},
		{`{"i":1,"n":0.2}`, true},
		{`{"i":1,"n":1e400}`, false},
		{`{"i":1,"n":1e99999}`, false},
		{`{"i":1,"i":2}`, false},
		{`{"i":1,"s":"\u00e9t\u00e9"}`, true},
		{`{"i":1,"s":"\ud800"}`, true},
		{"{\"i\":1,\"s\":\"\xff\xfe\"}", true},
		{`{"i":1,"s":"abcd"}`, false},
		{`{"i":1,"e":1}`, true},
		{`{"i":1,"e":2}`, false},
		{`{"i":1,"e":3}`, false},
		{`{"i":1}}`, false},
		{`{"i":1} x`, false},
		{`{"i":1,}`, false},
		{`{"i":01}`, false},
		{`{"\u0069":1}`, true},
		{`{"s":"a"}`, false},
		{`{"i":1,"z":[[[[]]]]}`, false},
		{`[]`, false},
	} {
		if got := checkAgreement(t, s, []byte(tt.args)); got != tt.quick {
			t.Errorf("%s: quick = %v, want %v", tt.args, got, tt.quick)
		}
	}
}

// randomSchema makes a flat object schema of the kind argCheck implements,
// now and then with a keyword it does not.
func randomSchema(r *rand.Rand) []byte {
	props := map[string]any{}
	var names []string
	for range r.IntN(6) {
		name := pick(r, propNames)
		props[name] = randomProp(r, true)
		names = append(names, name)
	}
	doc := map[string]any{"type": "object", "properties": props}
	if r.IntN(4) > 0 {
		doc["additionalProperties"] = r.IntN(3) > 0
	}
	if len(names) > 0 && r.IntN(2) == 0 {
		req := []string{}
		for _, n := range names {
			if r.IntN(2) == 0 && !slices.Contains(req, n) {
				req = append(req, n)
			}
		}
		doc["required"] = req
	}
	if r.IntN(20) == 0 {
		doc["minProperties"] = 1
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return raw
}

var (
	propNames = []string{"q", "id", "n", "on", "tags", "ü", "a b", `x"y`, "é"}
	jsonTypes = []string{"string", "integer", "number", "boolean", "array"}
	literals  = []string{"0", "-0", "1", "-1", "1.0", "2", "3", "1.5", "0.1", "-0.5", "1e2", "1E+2", "1e-2", "100", "255",
		"256", "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"-9223372036854775809", "12345678901234567890123", "0.30000000000000004", "1e300", "1e308", "1e309", "1e400",
		"-1e400", "1e-400", "0.000001", "5e-324", "1e9999", "1e99999", "0e99999"}
	texts = []string{"", "a", "ab", "abc", "abcd", "é", `\u00e9`, `\ud800`, `\ud83d\ude00`, "😀", "\xff", "a\xc3",
		`a\nb`, `\"`, `\\`, "123", "fast", "exact", "A", `\u0000`, "\u2028"}
	patterns = []string{"^[a-z]+$", "a", `^\d{1,3}$`, "é", "^$", "(?i)^A", `\\`}
)

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func randomProp(r *rand.Rand, top bool) map[string]any {
	typ := pick(r, jsonTypes)
	if !top && typ == "array" {
		typ = "string"
	}
	p := map[string]any{"type": typ}
	maybe := func(k string, v func() any) {
		if r.IntN(4) == 0 {
			p[k] = v()
		}
	}
	num := func() any { return json.Number(pick(r, literals)) }
	count := func() any { return r.IntN(5) }
	maybe("description", func() any { return "d" })
	maybe("default", func() any { return pick(r, texts) })
	maybe("format", func() any { return "date-time" })
	maybe("x-mcp-header", func() any { return "X-A" })
	maybe("enum", func() any {
		var e []any
		for range 1 + r.IntN(4) {
			if r.IntN(2) == 0 {
				e = append(e, num())
			} else {
				e = append(e, pick(r, []any{"a", "abc", "é", "fast", "1", true, false, nil}))
			}
		}
		return e
	})
	switch typ {
	case "string":
		maybe("minLength", count)
		maybe("maxLength", count)
		maybe("pattern", func() any { return pick(r, patterns) })
	case "integer", "number":
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
			maybe(k, num)
		}
	case "array":
		p["items"] = randomProp(r, false)
		maybe("minItems", count)
		maybe("maxItems", count)
	}
	if r.IntN(25) == 0 {
		k := pick(r, []string{"const", "multipleOf", "uniqueItems", "not"})
		p[k] = map[string]any{"const": "a", "multipleOf": json.Number("2"), "uniqueItems": true, "not": map[string]any{}}[k]
	}
	return p
}

// randomArgs makes arguments for a schema: mostly of the right shape, with
// hostile values, keys and syntax mixed in.
func randomArgs(r *rand.Rand, doc map[string]any) []byte {
	props, _ := doc["properties"].(map[string]any)
	var b strings.Builder
	b.WriteString(pick(r, []string{"{", " {", "\n\t{ "}))
	first := true
	member := func(key, value string) {
		if !first {
			b.WriteString(pick(r, []string{",", " , ", ",\n"}))
		}
		first = false
		k, _ := json.Marshal(key)
		if r.IntN(15) == 0 {
			k = []byte(strings.Replace(string(k), "a", `\u0061`, 1))
		}
		fmt.Fprintf(&b, "%s%s%s", k, pick(r, []string{":", " : "}), value)
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if r.IntN(5) == 0 {
			continue
		}
		pm, _ := props[name].(map[string]any)
		member(name, randomValue(r, pm, 0))
		if r.IntN(30) == 0 {
			member(name, randomValue(r, pm, 0)) // a key given twice
		}
	}
	if r.IntN(10) == 0 {
		member(pick(r, propNames), randomValue(r, nil, 0))
	}
	b.WriteString(pick(r, []string{"}", "} ", "}\n"}))
	out := b.String()
	switch r.IntN(40) {
	case 0:
		out += pick(r, []string{"}", "]", " x", "{}", ","})
	case 1:
		out = out[:r.IntN(len(out))]
	}
	return []byte(out)
}

// randomValue makes a value for a property's schema p, usually of its type.
func randomValue(r *rand.Rand, p map[string]any, depth int) string {
	typ, _ := p["type"].(string)
	if r.IntN(8) == 0 || typ == "" {
		typ = pick(r, append(jsonTypes, "null", "object", "huge", "deep"))
	}
	switch typ {
	case "string":
		return `"` + pick(r, texts) + `"`
	case "integer", "number":
		return pick(r, literals)
	case "boolean":
		return pick(r, []string{"true", "false", "tru", "True"})
	case "array":
		items, _ := p["items"].(map[string]any)
		var parts []string
		for range r.IntN(4) {
			if depth < 3 {
				parts = append(parts, randomValue(r, items, depth+1))
			}
		}
		return "[" + strings.Join(parts, pick(r, []string{",", " ,"})) + "]"
	case "object":
		return `{"a":1}`
	case "huge":
		return `"` + strings.Repeat("ab", 50000) + `"`
	case "deep":
		return strings.Repeat("[", 200) + strings.Repeat("]", 200)
	}
	return "null"
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
