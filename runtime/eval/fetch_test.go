package eval

import (
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/types"
	"github.com/google/go-cmp/cmp"
)

// TestFetchPath pins which programs are looked up rather than run: paths
// of names, written with dots or brackets; anything else runs on the VM.
func TestFetchPath(t *testing.T) {
	t.Parallel()
	env := types.Map{
		"args": types.Map{"location": types.String, "nested": types.Map{"a": types.Map{"b": types.Int64}}, types.Extra: types.Any},
		"auth": types.Any,
	}
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`args`, []string{"args"}},
		{`args.location`, []string{"args", "location"}},
		{`args["location"]`, []string{"args", "location"}},
		{`args.nested.a.b`, []string{"args", "nested", "a", "b"}},
		{`auth.claims.sub`, []string{"auth", "claims", "sub"}},
		{`args?.location`, nil},
		{`args.location ?? "x"`, nil},
		{`args.nested.a.b + 1`, nil},
		{`upper(args.location)`, nil},
		{`"Basel"`, nil},
		{`args.tags[0]`, nil},
	} {
		p, err := compileShared(tt.src, env)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if diff := cmp.Diff(tt.want, fetchPath(p)); diff != "" {
			t.Errorf("%s: path (-want +got):\n%s", tt.src, diff)
		}
	}
}

// TestFetchAsTheVM: for every path program and every environment, run
// gives what the VM gives, the same value or an error where the VM fails.
func TestFetchAsTheVM(t *testing.T) {
	t.Parallel()
	env := types.Map{"args": types.Map{types.Extra: types.Any}, "auth": types.Any}
	srcs := []string{`args`, `args.location`, `args["location"]`, `args.nested.a`, `args.nested.a.b`, `auth.claims.sub`}
	type named map[string]any
	vars := []map[string]any{
		{},
		{"args": nil},
		{"args": map[string]any{}},
		{"args": map[string]any(nil)},
		{"args": map[string]any{"location": "Basel", "nested": map[string]any{"a": map[string]any{"b": int64(2)}}}},
		{"args": map[string]any{"nested": map[string]any{"a": nil}}},
		{"args": map[string]any{"nested": map[string]any{"a": []any{1}}}},
		{"args": map[string]any{"nested": map[string]any{"a": "text"}}},
		{"args": map[string]any{"nested": map[string]string{"a": "typed"}}},
		{"args": map[string]any{"nested": named{"a": map[string]any{"b": 3.5}}}},
		{"args": "text"},
		{"args": []any{"x"}},
		{"auth": map[string]any{"claims": map[string]any{"sub": "u1"}}},
		{"auth": map[string]any{"claims": nil}},
	}
	for _, src := range srcs {
		p, err := compileShared(src, env)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		path := fetchPath(p)
		if path == nil {
			t.Fatalf("%s: not a path; this test checks paths", src)
		}
		for _, v := range vars {
			want, wantErr := expr.Run(p, v)
			got, gotErr := run(p, path, src, v)
			if (wantErr != nil) != (gotErr != nil) || !cmp.Equal(want, got) {
				t.Errorf("%s with %v: run gives %#v, %v; the VM %#v, %v", src, v, got, gotErr, want, wantErr)
			}
		}
	}
}

// BenchmarkEvalPath: a parameter such as `${{ args.location }}`, looked up
// and run on the VM.
func BenchmarkEvalPath(b *testing.B) {
	p, err := compileShared(`args.location`, types.Map{"args": types.Map{"location": types.String}})
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]any{"args": map[string]any{"location": "Basel"}}
	path := fetchPath(p)
	b.Run("fetch", func(b *testing.B) {
		for b.Loop() {
			if _, err := run(p, path, "", vars); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("vm", func(b *testing.B) {
		for b.Loop() {
			if _, err := run(p, nil, "", vars); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCompiledValuesLookUp: values compiled every way a config compiles
// them (a whole expression, text around expressions, a bare expression)
// look their paths up.
func TestCompiledValuesLookUp(t *testing.T) {
	t.Parallel()
	whole, errs := Compile(node(t, `"${{ args.name }}"`), env, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	text, errs := Compile(node(t, `"id-${{ args.limit }}"`), env, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	bare, errs := CompileExpr(node(t, `args.flag`), env, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for name, path := range map[string][]string{"whole": whole.path, "text": text.parts[1].path, "bare": bare.path} {
		if len(path) != 2 || path[0] != "args" {
			t.Errorf("%s: path %q, want [args ...]", name, path)
		}
	}
}
