package runtime_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
)

// diagnose builds config and returns its diagnostics as
// "line:col: path: message" strings, without the file name.
func diagnose(t *testing.T, config string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, ds := runtime.Compile([]string{path}, runtime.LoadOptions{}, runtime.BuildOptions{})
	if srv != nil {
		srv.Close()
	}
	var out []string
	for _, d := range ds {
		out = append(out, strings.TrimPrefix(d.String(), path+":"))
	}
	return out
}

func TestStepDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, steps string
		want        []string
	}{
		{"two actions in one step", `[{log: {message: a}, sleep: 1s}]`,
			[]string{"5:13: tools[0].steps[0]: a step has exactly one of log, progress, sleep, sample, elicit, close_stream; this one has 2"}},
		{"unknown level", `[{log: {level: loud, message: a}}]`,
			[]string{`5:27: tools[0].steps[0].log.level: expected one of debug, info, notice, warning, error, critical, alert, emergency, got "loud"`}},
		{"unknown step", `[{shout: a}]`,
			[]string{"5:13: tools[0].steps[0]: a step has exactly one of log, progress, sleep, sample, elicit, close_stream; this one has 0",
				`5:14: tools[0].steps[0]: unknown field "shout"`}},
		{"bad sleep", `[{sleep: soon}]`,
			[]string{`5:21: tools[0].steps[0].sleep: expected a duration such as 500ms, 30s or 2m, got "soon"`}},
		{"later step result", `[{log: {message: "{{ .steps.later.text }}"}}, {sample: {prompt: p, as: later}}]`,
			[]string{`5:29: tools[0].steps[0].log.message: unknown field .steps.later`}},
		{"nested elicitation schema", `[{elicit: {message: m, schema: {type: object, properties: {a: {type: object}}}}}]`,
			[]string{`5:43: tools[0].steps[0].elicit.schema: invalid elicitation schema: property "a" has type "object"; nested objects are not allowed; an object whose properties are strings, numbers, integers, booleans or enums`}},
		{"name used twice", `[{sample: {prompt: p, as: x}}, {sample: {prompt: q, as: x}}]`,
			[]string{`5:43: tools[0].steps[1]: step result "x" is named twice`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			config := "version: 1\ntools:\n  - name: t\n    description: d\n    steps: " + tt.steps + "\n    content: [{text: ok}]\n"
			if diff := cmp.Diff(tt.want, diagnose(t, config)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPConfigDiagnostics(t *testing.T) {
	t.Parallel()
	config := `version: 1
server:
  http:
    addr: localhost
    allowed_hosts: ["mcp.example.com", "bad host"]
    allowed_origins: ["https://app.example.com", "app.example.com", "*"]
    max_sessions: -1
    max_body: lots
`
	want := []string{
		`4:11: server.http.addr: "localhost" is not host:port; e.g. 127.0.0.1:8080`,
		`5:40: server.http.allowed_hosts[1]: "bad host" is not a host name or host:port; e.g. mcp.example.com`,
		`6:50: server.http.allowed_origins[1]: "app.example.com" is not an origin; an origin is scheme://host[:port], e.g. https://app.example.com`,
		`7:19: server.http.max_sessions: max_sessions cannot be negative`,
		`8:15: server.http.max_body: expected a size such as 512, 64KiB or 4MiB, got "lots"`,
	}
	if diff := cmp.Diff(want, diagnose(t, config)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
