package shellkind_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// typedArgs declares the arguments of the placement tests: s a free
// string, list a list of them, n an integer, kind an enum, name a word
// (by its pattern), ids a list of integers, and strings whose patterns are
// not words.
const typedArgs = `    args:
      - {name: s}
      - {name: list, type: array}
      - {name: n, type: integer}
      - {name: kind, enum: [pods, services]}
      - {name: dashkind, enum: [pods, -A]}
      - {name: name, pattern: '^[a-z0-9][a-z0-9-]{0,62}$'}
      - {name: ids, type: array, items: integer}
      - {name: unanchored, pattern: '[a-z]+'}
      - {name: spaced, pattern: '^[a-z ]+$'}
      - {name: dashed, pattern: '^[a-z-]+$'}
      - {name: anything, pattern: '^.+$'}
      - {name: quoted, pattern: '^[a-z'';]+$'}
`

// typed is a config with one tool "t" taking typedArgs, its handler's
// programs found in testdata/bin (stand-ins for kubectl, git and docker
// that print their arguments) before the system's.
func typed(t testing.TB, handler string) string {
	t.Helper()
	bin, err := filepath.Abs("testdata/bin")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("version: 1\ntools:\n  - name: t\n    description: a test tool\n" + typedArgs)
	b.WriteString("    handler:\n      kind: shell\n      env: {PATH: '" + bin + ":/usr/local/bin:/usr/bin:/bin'}\n")
	for _, line := range strings.Split(handler, "\n") {
		b.WriteString("      " + line + "\n")
	}
	return b.String()
}

// TestPlacement: what an argument may fill, by what it can hold and
// where it lands; each refusal names the fix.
func TestPlacement(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		want          string // the error's message, "" when accepted
	}{
		// accepted: the forms people write
		{"a free string as -n's value", "command: [kubectl, get, pods, -n, '${{ args.s }}']", ""},
		{"a free string as --author's value", "command: [git, log, --author, '${{ args.s }}']", ""},
		{"a free string in --author=VALUE", "command: [git, log, '--author=${{ args.s }}']", ""},
		{"an integer and a word as operands", "command: [docker, logs, --tail, '${{ args.n }}', '${{ args.name }}']", ""},
		{"a free string as echo's operand", "command: [echo, '${{ args.s }}']", ""},
		{"a value after python3 -c PROGRAM", "command: [python3, -c, 'import sys; print(sys.argv[1])', '${{ args.s }}']", ""},
		{"an enum as an operand", "command: [kubectl, get, '${{ args.kind }}']", ""},
		{"an enum as sh -c's program", "command: [sh, -c, '${{ args.kind }}']", ""},
		{"a list of integers as operands", "command: [docker, rm, '${{ args.ids }}']", ""},
		{"a word as an operand after --", "command: [ls, --, '${{ args.name }}']", ""},
		{"an option's value for a program of yours", "command: [./mytool, --name, '${{ args.s }}']", ""},
		// refused: free text where it could be code or an option
		{"a free string as an operand", "command: [docker, logs, '${{ args.s }}']", notData("docker")},
		{"a free string as -c's value", "command: [git, -c, '${{ args.s }}', log]", codeValue("-c")},
		{"a free string as an awk option's value", "command: [awk, -F, '${{ args.s }}', '{print $1}']", runs("awk")},
		{"a free string as python3's program", "command: [python3, '${{ args.s }}']", runs("python3")},
		{"a free string before python3 -c", "command: [python3, '${{ args.s }}', -c, 'print(1)']", runs("python3")},
		{"a free string after python3 -m", "command: [python3, -m, json.tool, '${{ args.s }}']", runs("python3")},
		{"--eval=VALUE", "command: [node, '--eval=${{ args.s }}']", spliced},
		{"--upload-pack=VALUE", "command: [git, fetch, '--upload-pack=${{ args.s }}']", spliced},
		{"a free string as sort's compress program", "command: [sort, --compress-program, '${{ args.s }}']", codeValue("--compress-program")},
		{"a word as a container's entrypoint", "command: [docker, run, --entrypoint, '${{ args.name }}', img]", codeValue("--entrypoint")},
		{"a list as an option's value", "command: [kubectl, get, pods, -n, '${{ args.list }}']",
			"a list would spread over several elements here, and only the first is the value of -n; pass one string (give the argument a type other than array)"},
		{"a word as sh -c's program", "command: [sh, -c, '${{ args.name }}']", shellText("sh")},
		{"a word run by xargs", "command: [xargs, '${{ args.name }}']", runs("xargs")},
		{"a word as python3 -c's program", "command: [python3, -c, '${{ args.name }}']", codeValue("-c")},
		{"a word after -- of kubectl exec", "command: [kubectl, exec, pod, --, '${{ args.name }}']", notData("kubectl")},
		{"a word as find -exec's command", "command: [find, ., -exec, '${{ args.name }}', '{}', ';']", codeValue("-exec")},
		{"a word in find -exec's command line", "command: [find, ., -exec, sh, -c, x, '${{ args.name }}', ';']", execLine},
		{"a free string after a declared code option", "command: [./mytool, --script, '${{ args.s }}']\ncode_options: [--script]", codeValue("--script")},
		{"a word after a declared code option", "command: [./mytool, --script, '${{ args.name }}']\ncode_options: [--script]", codeValue("--script")},
		{"a declared code option with its value", "command: [./mytool, '--script=${{ args.s }}']\ncode_options: [--script]", spliced},
		{"an enum with an option", "command: [kubectl, get, '${{ args.dashkind }}']", notData("kubectl")},
		{"an unanchored pattern", "command: [kubectl, get, '${{ args.unanchored }}']", notData("kubectl")},
		{"a pattern allowing spaces", "command: [kubectl, get, '${{ args.spaced }}']", notData("kubectl")},
		{"a pattern allowing a leading dash", "command: [kubectl, get, '${{ args.dashed }}']", notData("kubectl")},
		{"a pattern allowing anything", "command: [kubectl, get, '${{ args.anything }}']", notData("kubectl")},
		{"a pattern allowing quotes", "command: [kubectl, get, '${{ args.quoted }}']", notData("kubectl")},
		{"code_options that are not options", "command: [ls]\ncode_options: [script]",
			`"script" is not an option: write it as the program takes it, such as -x or --script`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, d := range handlertest.Diagnose(t, registry(), typed(t, tt.handler)) {
				if d.Severity == load.Error {
					got = append(got, d.Message)
				}
			}
			if tt.want == "" && len(got) > 0 || tt.want != "" && (len(got) != 1 || got[0] != tt.want) {
				t.Errorf("diagnostics %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPlacementHostileValues calls each newly accepted form with values a
// shell or a program would act on: each reaches the program as one
// element, verbatim, or the call is refused before anything runs.
func TestPlacementHostileValues(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 1<<20)
	hostileValues := []struct{ name, v, refused string }{
		{"flag", "-rf", "starts with '-'"},
		{"long flag", "--output=/etc/x", "starts with '-'"},
		{"command substitution", "$(touch pwned)", ""},
		{"semicolon", "x; touch pwned", ""},
		{"newlines", "x\ntouch pwned\n", ""},
		{"1 MiB", big, "too long"},
	}
	python := "python3"
	if _, err := exec.LookPath(python); err != nil {
		python = "" // the python3 form is skipped
	}
	for _, form := range []struct {
		name, handler, before string
		data                  bool // a value starting with '-' is data here
	}{
		{"kubectl -n", "command: [kubectl, get, pods, -n, '${{ args.s }}']", "<get>\n<pods>\n<-n>\n", false},
		{"kubectl -n with allow_flags", "command: [kubectl, get, pods, -n, '${{ args.s }}']\nallow_flags: true", "<get>\n<pods>\n<-n>\n", false},
		{"git --author", "command: [git, log, --author, '${{ args.s }}']", "<log>\n<--author>\n", false},
		{"git --author=", "command: [git, log, '--author=${{ args.s }}']", "<log>\n<--author=", true},
		{"a script's operand", "command: [./args.sh, '${{ args.s }}']", "", false},
		{"python3 -c PROGRAM ARG", "command: [python3, -c, 'import sys; print(\"<\" + sys.argv[1] + \">\")', '${{ args.s }}']", "", true},
	} {
		for _, h := range hostileValues {
			t.Run(form.name+"/"+h.name, func(t *testing.T) {
				t.Parallel()
				if strings.HasPrefix(form.name, "python3") && python == "" {
					t.Skip("no python3")
				}
				dir := t.TempDir()
				srv := build(t, typed(t, form.handler+"\ndir: "+dir+"\nmax_output: 4MiB"))
				args, _ := json.Marshal(map[string]string{"s": h.v})
				res := handlertest.Call(t, context.Background(), srv, "t", string(args))
				text := strings.TrimRight(handlertest.Text(res), "\n")
				want := form.before + "<" + h.v + ">"
				if strings.HasSuffix(form.before, "=") {
					want = form.before + h.v + ">"
				}
				refused := h.refused
				if form.data && refused != "too long" {
					refused = ""
				}
				switch {
				case refused != "":
					if !res.IsError || !strings.Contains(text, refused) {
						t.Errorf("want a refusal containing %q, got isError=%v %.200q", refused, res.IsError, text)
					}
				case res.IsError || text != strings.TrimRight(want, "\n"):
					t.Errorf("isError=%v, got %.200q, want %.200q", res.IsError, text, want)
				}
				if entries, _ := os.ReadDir(dir); len(entries) > 0 {
					t.Errorf("the command created %v", entries)
				}
			})
		}
	}
}

// TestStubReplacesAMissingProgram: in `mcpgen test`, a stub stands in for
// a program this machine does not have; without one, the call fails.
func TestStubReplacesAMissingProgram(t *testing.T) {
	t.Parallel()
	srv := build(t, tool([]string{"v"}, "command: [no-such-program-mcpgen, -n, '${{ args.v }}']"))
	var argv []string
	ctx := handlers.WithDoubles(context.Background(), &handlers.Doubles{Shell: func(a []string) *handlers.Stub {
		argv = a
		return &handlers.Stub{Stdout: "stubbed"}
	}})
	res := handlertest.Call(t, ctx, srv, "t", `{"v": "x"}`)
	if text := handlertest.Text(res); res.IsError || text != "stubbed" {
		t.Errorf("isError=%v %q, want the stub's output", res.IsError, text)
	}
	if want := []string{"no-such-program-mcpgen", "-n", "x"}; strings.Join(argv, " ") != strings.Join(want, " ") {
		t.Errorf("the stub saw %q, want %q", argv, want)
	}
	res = handlertest.Call(t, context.Background(), srv, "t", `{"v": "x"}`)
	if text := handlertest.Text(res); !res.IsError || !strings.Contains(text, "not found") {
		t.Errorf("without a stub: isError=%v %q, want not found", res.IsError, text)
	}
}
