package shellkind_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/handlers/shellkind"
)

// TestEnvironment cannot run in parallel: it sets variables of the test
// process, which the handler reads when the config is built.
func TestEnvironment(t *testing.T) {
	t.Setenv("MCPGEN_TEST_ALLOWED", "visible")
	t.Setenv("MCPGEN_TEST_SECRET", "hidden")
	t.Setenv("PATH", os.Getenv("PATH"))
	for _, tt := range []struct {
		name, handler, args string
		want                []string
	}{
		{"only PATH by default", "command: [env]", `{"a": ""}`,
			[]string{"PATH=" + os.Getenv("PATH")}},
		{"env_allow passes names through", "command: [env]\nenv_allow: [MCPGEN_TEST_ALLOWED, MCPGEN_TEST_UNSET]", `{"a": ""}`,
			[]string{"MCPGEN_TEST_ALLOWED=visible", "PATH=" + os.Getenv("PATH")}},
		{"env values and expressions", "command: [env]\nenv: {N: 7, S: 'a ${{ args.a }}', J: '${{ [args.a] }}', O: '${{ args.b }}'}", `{"a": "x"}`,
			[]string{"J=[\"x\"]", "N=7", "PATH=" + os.Getenv("PATH"), "S=a x"}},
		{"env wins over env_allow", "command: [env]\nenv_allow: [MCPGEN_TEST_ALLOWED]\nenv: {MCPGEN_TEST_ALLOWED: mine}", `{"a": ""}`,
			[]string{"MCPGEN_TEST_ALLOWED=mine", "PATH=" + os.Getenv("PATH")}},
		{"PATH can be replaced", "command: [env]\nenv: {PATH: '/usr/bin:/bin'}", `{"a": ""}`,
			[]string{"PATH=/usr/bin:/bin"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := build(t, tool([]string{"a", "b"}, tt.handler))
			res := handlertest.Call(t, context.Background(), srv, "t", tt.args)
			got := strings.Split(strings.TrimSpace(handlertest.Text(res)), "\n")
			if diff := cmp.Diff(tt.want, got); diff != "" || res.IsError {
				t.Errorf("isError=%v, environment (-want +got):\n%s", res.IsError, diff)
			}
		})
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("PATH", "")
	srv := build(t, tool(nil, "command: [/usr/bin/env]"))
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	if got, want := handlertest.Text(res), "PATH="+shellkind.DefaultPath+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestArgv(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler, args, want string
	}{
		{"a list spreads", "command: [./args.sh, --, a, '${{ args.l }}', z]", `{"l": ["x", "y z", 3]}`, "<-->\n<a>\n<x>\n<y z>\n<3>\n<z>\n"},
		{"an empty list is nothing", "command: [./args.sh, --, a, '${{ args.l }}', z]", `{"l": []}`, "<-->\n<a>\n<z>\n"},
		{"a missing argument is empty", "command: [./args.sh, --, a, '${{ args.s }}', z]", `{"l": []}`, "<-->\n<a>\n<>\n<z>\n"},
		{"?? [] leaves it out", "command: [./args.sh, --, a, '${{ args.s ?? [] }}', z]", `{"l": []}`, "<-->\n<a>\n<z>\n"},
		{"a list in text is JSON", "script: printf '<%s>' \"$1\"\nparams: ['l=${{ args.l }}']", `{"l": ["x", 1]}`, "<l=[\"x\",1]>"},
		{"numbers", "command: [./args.sh, '${{ args.n }}', '${{ args.n * 2.5 }}', 10]", `{"l": [], "n": 4}`, "<4>\n<10>\n<10>\n"},
		{"a list param spreads", "script: printf '<%s>' \"$@\"\nparams: [a, '${{ args.l }}']", `{"l": ["b", "c"]}`, "<a><b><c>"},
		{"$0 is mcpgen", "script: printf '<%s>' \"$0\"", `{"l": []}`, "<mcpgen>"},
		{"dir defaults to the config's", "script: ls", `{"l": []}`, "mcpgen.yaml\n"},
		{"bash runs a script", "shell: bash\nscript: 'echo $${BASH_VERSION:+bash}'", `{"l": []}`, "bash\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			config := tool(nil, tt.handler)
			config = strings.Replace(config, "    handler:", `    input_schema:
      type: object
      properties:
        l: {type: array}
        s: {type: string}
        n: {type: integer}
      required: [l]
    handler:`, 1)
			srv := build(t, config)
			res := handlertest.Call(t, context.Background(), srv, "t", tt.args)
			if diff := cmp.Diff(tt.want, handlertest.Text(res)); diff != "" || res.IsError {
				t.Errorf("isError=%v, output (-want +got):\n%s", res.IsError, diff)
			}
		})
	}
}

func TestDir(t *testing.T) {
	t.Parallel()
	files := map[string]string{"sub/marker": "here"}
	config := tool(nil, "command: [ls]\ndir: sub")
	srv := handlertest.Build(t, registry(), config, files)
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	if got := handlertest.Text(res); got != "marker\n" {
		t.Errorf("ls in dir: got %q, want marker", got)
	}
}

// TestSecretsAreMasked: a value the config took from the environment never
// comes back, whether the command prints it on stdout or stderr, in a
// result or a log.
func TestSecretsAreMasked(t *testing.T) {
	t.Setenv("MCPGEN_TEST_TOKEN", "s3cr3t-token")
	for _, tt := range []struct{ name, handler string }{
		{"success", "script: 'echo \"out $TOKEN\"; echo \"err $TOKEN\" >&2'"},
		{"failure", "script: 'echo \"out $TOKEN\"; echo \"err $TOKEN\" >&2; exit 1'"},
		{"timeout", "script: 'echo \"err $TOKEN\" >&2; sleep 10'\ntimeout: 300ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := build(t, tool(nil, tt.handler+"\nenv: {TOKEN: '${MCPGEN_TEST_TOKEN}'}"))
			var l logs
			res, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), &l)
			if err != nil {
				t.Fatal(err)
			}
			all := handlertest.Text(res) + strings.Join(l.lines, "\n")
			if strings.Contains(all, "s3cr3t") || !strings.Contains(all, "err ****") {
				t.Errorf("want the token masked, got result %q and logs %q", handlertest.Text(res), l.lines)
			}
		})
	}
}
