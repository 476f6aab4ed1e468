package runtime

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

const envExprConfig = `version: 1
tools:
  - name: auth
    description: Shows the header it would send.
    handler:
      kind: echo
      result: "${{ env.API_USER + ':' + env.API_PASSWORD }} ${{ env.REGION }}"
`

// TestEnvInExpressions checks that expressions read the environment as
// env.NAME: unset variables are load errors at their position (unless
// skipped), and secret-named values are masked in results.
func TestEnvInExpressions(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": envExprConfig})
	path := filepath.Join(dir, "mcpgen.yaml")
	compile := func(env map[string]string, skip bool) (*Server, load.Diagnostics) {
		srv, ds := Compile([]string{path}, load.Options{LookupEnv: envMap(env), SkipEnv: skip},
			BuildOptions{Registry: testRegistry(nil)})
		if srv != nil {
			t.Cleanup(func() { srv.Close() })
		}
		return srv, ds
	}

	_, ds := compile(map[string]string{"API_USER": "ann"}, false)
	want := "mcpgen.yaml:7:41: tools[0].handler.result: env.API_PASSWORD: ${API_PASSWORD} is not set\n" +
		"mcpgen.yaml:7:65: tools[0].handler.result: env.REGION: ${REGION} is not set\n"
	if got := diagText(ds, dir); got != want {
		t.Errorf("unset variables:\n got %s\nwant %s", got, want)
	}
	if _, ds := compile(nil, true); ds.Errors() > 0 {
		t.Errorf("with SkipEnv: %v", ds)
	}

	srv, ds := compile(map[string]string{"API_USER": "ann", "API_PASSWORD": "hunter22", "REGION": "eu-west-1"}, false)
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	res, err := srv.CallTool(context.Background(), "auth", []byte(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := textOf(res.Content), "ann:**** eu-west-1"; got != want {
		t.Errorf("result %q, want %q", got, want)
	}
}

// TestEnvReferenceInsideExpression checks that ${VAR} written inside an
// expression, which the loader leaves alone, is an error, not a literal.
func TestEnvReferenceInsideExpression(t *testing.T) {
	t.Parallel()
	_, ds := compileText(t, `version: 1
tools:
  - name: t
    description: d
    handler:
      kind: echo
      result: "${{ 'Bearer ${API_TOKEN}' }}"
`, nil)
	want := "mcpgen.yaml:7:28: tools[0].handler.result: ${...} is not expanded inside ${{ }}: the expression would see it as written; read the variable in the expression as env.NAME\n"
	if got := diagText(ds, ""); !strings.HasSuffix(got, want) || ds.Errors() != 1 {
		t.Errorf("got %s, want %s", got, want)
	}
}
