package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// diagnose builds config and returns its diagnostics as
// "line:col: path: message" strings, without the file name.
func diagnose(t *testing.T, config string) []string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{})
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
			[]string{"5:33: tools[0].steps[0].sleep: give exactly one of log, progress, sleep, sample, elicit, close_stream, roots, call; found log and sleep"}},
		{"unknown level", `[{log: {level: loud, message: a}}]`,
			[]string{`5:27: tools[0].steps[0].log.level: expected one of debug, info, notice, warning, error, critical, alert, emergency, got "loud"`}},
		{"unknown step", `[{shout: a}]`,
			[]string{"5:13: tools[0].steps[0]: give exactly one of log, progress, sleep, sample, elicit, close_stream, roots, call",
				`5:14: tools[0].steps[0]: unknown field "shout"`}},
		{"bad sleep", `[{sleep: soon}]`,
			[]string{`5:21: tools[0].steps[0].sleep: expected a duration such as 500ms, 30s or 2m, got "soon"`}},
		{"later step result", `[{log: {message: "{{ .steps.later.text }}"}}, {sample: {prompt: p, as: later}}]`,
			[]string{`5:33: tools[0].steps[0].log.message: unknown field .steps.later`}},
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

// notes records what a call outside any session reports.
type notes struct{ got []string }

func (n *notes) Log(_ context.Context, level slog.Level, msg string, _ map[string]any) {
	n.got = append(n.got, level.String()+" "+msg)
}

func (n *notes) Progress(_ context.Context, progress, total float64, msg string) {
	n.got = append(n.got, fmt.Sprintf("progress %v/%v %s", progress, total, msg))
}

// stepsConfig has a tool for each step that needs, or may use, a client
// session.
const stepsConfig = `
version: 1
tools:
  - name: logs
    description: Logs at three levels.
    steps:
      - log: {level: debug, message: "debug {{ .args.n }}"}
      - log: {level: info, message: info}
      - log: {level: warning, message: warning, logger: custom}
    args: [{name: n, type: integer, default: 1}]
    content: [{text: logged}]
  - name: progress
    description: Reports progress.
    steps:
      - progress: {progress: 10, total: 100, message: start}
      - sleep: 5ms
      - progress: {progress: 5, total: 100, message: backwards}
      - progress: {progress: 100, total: 100, message: "end"}
    content: [{text: progressed}]
  - name: ask_model
    description: Samples the client's model.
    args: [{name: topic, required: true}]
    steps:
      - sample: {prompt: "Write about {{ .args.topic }}", system: Be brief., max_tokens: 50, as: reply}
    content: [{text: "model {{ .steps.reply.model }} said: {{ .steps.reply.text }}"}]
  - name: ask_user
    description: Elicits a name.
    steps:
      - elicit: {message: "Who are you?", as: who}
    content: [{text: "hello {{ .steps.who.action }}"}]
  - name: reconnect
    description: Closes its stream mid-call.
    steps:
      - log: {message: before}
      - close_stream: {retry: 5ms}
      - sleep: 100ms
      - log: {message: after}
    content: [{text: resumed}]
`

func TestStepsOutsideASession(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, stepsConfig, nil)
	for _, tt := range []struct {
		tool, args, want string
		isError          bool
		notes            []string
	}{
		{tool: "logs", args: `{"n": 2}`, want: "logged", notes: []string{"DEBUG debug 2", "INFO info", "WARN warning"}},
		{tool: "progress", want: "progressed",
			notes: []string{"progress 10/100 start", "progress 5/100 backwards", "progress 100/100 end"}},
		{tool: "ask_model", args: `{"topic": "x"}`, isError: true,
			want: "asking the client's model: this step needs an MCP client session"},
		{tool: "ask_user", isError: true, want: "asking the user: this step needs an MCP client session"},
		{tool: "reconnect", want: "resumed", notes: []string{"INFO before", "INFO after"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			t.Parallel()
			var n notes
			res, err := srv.CallTool(t.Context(), tt.tool, []byte(tt.args), &n)
			if err != nil {
				t.Fatal(err)
			}
			if got := textOf(res.Content); got != tt.want || res.IsError != tt.isError {
				t.Errorf("got %q (isError %v), want %q (isError %v)", got, res.IsError, tt.want, tt.isError)
			}
			if diff := cmp.Diff(tt.notes, n.got); diff != "" {
				t.Errorf("notifications (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSleepStepHonoursCancellation(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, "version: 1\ntools:\n  - {name: nap, description: d, steps: [{sleep: 1h}], content: [{text: ok}]}\n", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res, err := srv.CallTool(ctx, "nap", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(res.Content); !res.IsError || got != "canceled: context deadline exceeded" {
		t.Errorf("got %q (isError %v)", got, res.IsError)
	}
}
