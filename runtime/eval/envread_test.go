package eval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvRead(t *testing.T) {
	read := map[string]bool{}
	opts := Options{Env: func(name string) (string, bool) {
		read[name] = true
		v, ok := map[string]string{"USER": "ann", "PASS": "s3cret", "EMPTY": ""}[name]
		return v, ok
	}}
	for _, tt := range []struct {
		name, src string
		want      any
	}{
		{"one variable", `"${{ env.USER }}"`, "ann"},
		{"typed string", `"${{ env.USER + ':' + env['PASS'] }}"`, "ann:s3cret"},
		{"in text", `"Basic ${{ toBase64(env.USER + ':' + env.PASS) }}"`, "Basic YW5uOnMzY3JldA=="},
		{"set but empty", `"${{ env.EMPTY ?? 'x' }}"`, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkEval(t, tt.src, opts, tt.want)
		})
	}
	if diff := cmp.Diff(map[string]bool{"USER": true, "PASS": true, "EMPTY": true}, read); diff != "" {
		t.Errorf("variables read (-want +got):\n%s", diff)
	}
}

func TestEnvErrors(t *testing.T) {
	opts := Options{Env: func(name string) (string, bool) { return "v", name == "SET" }}
	for _, tt := range []struct {
		name, src string
		opts      Options
		offset    int
		msg, hint string
	}{
		{"unset", `"${{ env.SET + env.MISSING }}"`, opts, 14, "env.MISSING: ${MISSING} is not set", ""},
		{"read by a computed name", `"${{ env[args.name] }}"`, opts, 4, "env is read by a variable's name, known when the config loads", "write env.NAME"},
		{"env alone", `"${{ len(env) }}"`, opts, 8, "env is read by a variable's name, known when the config loads", "write env.NAME"},
		{"${VAR} inside an expression", `"${{ 'Bearer ${TOKEN}' }}"`, opts, 12,
			"${...} is not expanded inside ${{ }}: the expression would see it as written", "read the variable in the expression as env.NAME"},
		{"${VAR} inside interpolated text", `"a ${{ args.name + '${X}' }} b"`, Options{}, 19,
			"${...} is not expanded inside ${{ }}: the expression would see it as written", "read the variable in the expression as env.NAME"},
		{"env without a reader is unknown", `"${{ env.SET }}"`, Options{}, 4, "expr: unknown name env", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := Compile(node(t, tt.src), env, tt.opts)
			if len(errs) != 1 {
				t.Fatalf("want one error, got %v", errs)
			}
			e := errs[0]
			got := []any{e.Offset, e.Msg, e.Hint}
			if diff := cmp.Diff([]any{tt.offset, tt.msg, tt.hint}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
