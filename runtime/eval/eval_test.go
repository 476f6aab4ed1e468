package eval

import (
	"net/url"
	"testing"

	"github.com/expr-lang/expr/types"
	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

func node(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

var env = types.Map{"args": types.Map{
	"name":  types.String,
	"limit": types.Int64,
	"tags":  types.TypeOf([]any{}),
	"flag":  types.Bool,
	"opt":   types.String,
}}

var vars = map[string]any{"args": map[string]any{
	"name": "Ann", "limit": int64(5), "tags": []any{"a", "b"}, "flag": true,
}}

func TestEval(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      any
	}{
		{"literal string", `hello`, "hello"},
		{"literal number", `42`, int64(42)},
		{"literal bool", `true`, true},
		{"one expression keeps its type", `"${{ args.limit }}"`, int64(5)},
		{"arithmetic", `"${{ args.limit * 2 }}"`, 10},
		{"list", `"${{ args.tags }}"`, []any{"a", "b"}},
		{"interpolation is text", `"id-${{ args.limit }}-${{ args.name }}"`, "id-5-Ann"},
		{"spaces around one expression", `"  ${{ args.flag }} "`, true},
		{"absent optional is nil", `"${{ args.opt }}"`, nil},
		{"default for an absent optional", `"${{ args.opt ?? 'x' }}"`, "x"},
		{"escaped marker is literal", `"cost: $${{ args.limit }}"`, "cost: ${{ args.limit }}"},
		{"mapping keeps types, omits nil expressions", `{n: "${{ args.limit }}", o: "${{ args.opt }}", z: null, s: "${{ args.name }}"}`,
			map[string]any{"n": int64(5), "z": nil, "s": "Ann"}},
		{"sequence", `["${{ args.flag }}", 1, x]`, []any{true, int64(1), "x"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkEval(t, tt.src, Options{}, tt.want)
		})
	}
}

// checkEval compiles src with opts, evaluates it with vars and compares
// the value with want.
func checkEval(t *testing.T, src string, opts Options, want any) {
	t.Helper()
	v, errs := Compile(node(t, src), env, opts)
	if len(errs) > 0 {
		t.Fatalf("compile: %v", errs)
	}
	got, err := v.Eval(vars)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestStringEscapes(t *testing.T) {
	v, errs := Compile(node(t, `"/users/${{ args.name }}/items"`), env, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got, err := v.String(map[string]any{"args": map[string]any{"name": "../../admin?x=1"}}, url.PathEscape)
	if err != nil {
		t.Fatal(err)
	}
	if want := "/users/..%2F..%2Fadmin%3Fx=1/items"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		offset    int
		msg, hint string
	}{
		{"unknown argument", `"${{ args.nmae }}"`, 9, "expr: unknown field nmae", `did you mean "name"?`},
		{"unknown name", `"x ${{ argz.name }}"`, 6, "expr: unknown name argz", `did you mean "args"?`},
		{"type error", `"${{ args.name + 1 }}"`, 14, "expr: invalid operation: + (mismatched types string and int)", ""},
		{"unterminated", `"a ${{ args.name"`, 2, "unterminated ${{: expected }}", ""},
		{"empty", `"${{ }}"`, 3, "empty expression", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Compile(node(t, tt.src), env, Options{})
			if len(errs) != 1 {
				t.Fatalf("want one error, got %v", errs)
			}
			e := errs[0]
			got := struct {
				Offset    int
				Msg, Hint string
			}{e.Offset, e.Msg, e.Hint}
			want := struct {
				Offset    int
				Msg, Hint string
			}{tt.offset, tt.msg, tt.hint}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTypeOf(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"id": map[string]any{"type": "integer"}, "q": map[string]any{"type": "string"},
		"meta": map[string]any{"type": "object"},
	}}
	m, ok := TypeOf(schema).(types.Map)
	if !ok {
		t.Fatalf("TypeOf(object) = %T, want a map", TypeOf(schema))
	}
	if m["id"] != types.Int64 || m["q"] != types.String {
		t.Errorf("property types: %v", m)
	}
	if _, open := m["meta"].(types.Map)[types.Extra]; !open {
		t.Errorf("an object without properties should accept any key: %v", m["meta"])
	}
	if TypeOf("nonsense") != types.Any {
		t.Errorf("a non-schema should be any")
	}
}

func TestFormat(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{nil, ""}, {"s", "s"}, {int64(3), "3"}, {3.0, "3"}, {2.5, "2.5"}, {true, "true"},
		{[]any{1, "a"}, `[1,"a"]`}, {map[string]any{"a": 1}, `{"a":1}`},
	} {
		if got := Format(tt.in); got != tt.want {
			t.Errorf("Format(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestObjects(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      any
	}{
		{"a computed key", `"${{ {(args.name): args.limit} }}"`, map[string]any{"Ann": int64(5)}},
		{"fromPairs has text keys", `"${{ fromPairs([[args.name, 1], [2, true]]) }}"`, map[string]any{"Ann": 1, "2": true}},
		{"merge, the later winning", `"${{ merge({a: 1, b: 1}, {b: 2}, args.opt) }}"`, map[string]any{"a": 1, "b": 2}},
		{"merge reads the result's keys", `"${{ merge({a: 1}, {b: 2}).b }}"`, 2},
		{"a mapping leaves out a key whose expression yields nothing", `{a: "${{ args.opt }}"}`, map[string]any{}},
		{"an object literal keeps it as null", `"${{ {a: args.opt} }}"`, map[string]any{"a": nil}},
	} {
		t.Run(tt.name, func(t *testing.T) { checkEval(t, tt.src, Options{}, tt.want) })
	}
}
