package shellkind_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// The refusals of arguments placed where a program could read them as
// code or as an option.
const (
	hint = "declare the argument so it cannot hold code or an option (type integer, number or " +
		"boolean, an enum, or a pattern such as '^[a-z0-9][a-z0-9-]*$'), or pass it as a literal option's " +
		"value ([git, log, --author, \"${{ args.author }}\"]) or after a literal `--` for a program that reads " +
		"its operands as data ([grep, -n, --, \"${{ args.pattern }}\"]); or use `script` and read it from " +
		"`params` (\"$1\"), `env` or `stdin`"
	spliced = "an argument spliced into text could become program text or an option " +
		"(as in `python3 -c \"print('${{ args.x }}')\"`); " + hint
	execLine = "the elements after find's -exec are a command line; " + hint
)

// notData is the refusal of an operand of a program not known to read its
// operands as data.
func notData(program string) string {
	return program + " is not known to read its operands as data: it could run them as code or as a command " +
		"(as kubectl exec, ssh or a program of yours could); " + hint
}

// runs is the refusal of an operand of a program known to run code.
func runs(program string) string {
	return program + " runs its operands as code or as a command (as awk, sed, jq, python3, xargs, env, " +
		"timeout do); " + hint
}

// codeValue is the refusal of the value of a code-taking option.
func codeValue(option string) string {
	return "the value of " + option + " is program text or a command; " + hint
}

// shellText is the refusal of an argument as a shell's program text.
func shellText(shell string) string {
	return shell + " reads this operand as its program (the -c string or the script file); an argument goes " +
		"after it: [" + shell + ", -c, 'grep -- \"$1\" notes', --, \"${{ args.pattern }}\"]"
}

func TestDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler string
		want          []string // file:line:col: path: message[; hint], file name only
	}{
		{"empty command", "command: []", []string{
			"mcpgen.yaml:10:16: tools[0].handler.command: a shell handler needs a command (a list: [program, arg, ...]) or a script"}},
		{"no command", "timeout: 1s", []string{
			"mcpgen.yaml:9:7: tools[0].handler: give exactly one of command, script"}},
		{"unknown argument", "command: [grep, -n, --, '${{ args.patern }}', '${{ args.path }}']", []string{
			`mcpgen.yaml:10:41: tools[0].handler.command[3]: expr: unknown field patern; did you mean "pattern"?`}},
		{"program from an argument", "command: ['${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:17: tools[0].handler.command[0]: the program is fixed text: arguments cannot choose what runs"}},
		{"empty program", "command: ['', x]", []string{
			"mcpgen.yaml:10:17: tools[0].handler.command[0]: the program must be a name or a path"}},
		{"list element", "command: [ls, [a, b]]", []string{
			"mcpgen.yaml:10:21: tools[0].handler.command[1]: expected a single value (a string, number or ${{ expression }})"}},
		{"argument spliced into sh -c", "command: [sh, -c, 'grep ${{ args.pattern }} notes']", []string{
			"mcpgen.yaml:10:25: tools[0].handler.command[2]: " + spliced}},
		{"argument spliced into python3 -c", "command: [python3, -c, 'print(\"${{ args.pattern }}\")']", []string{
			"mcpgen.yaml:10:30: tools[0].handler.command[2]: " + spliced}},
		{"argument spliced into an option cluster", "command: [/usr/bin/python3, '-cprint(${{ args.pattern }})']", []string{
			"mcpgen.yaml:10:35: tools[0].handler.command[1]: " + spliced}},
		{"argument spliced into an awk program", "command: [awk, '/${{ args.pattern }}/ {print}', notes]", []string{
			"mcpgen.yaml:10:22: tools[0].handler.command[1]: " + spliced}},
		{"argument spliced into an awk variable", "command: [awk, -v, 'p=${{ args.pattern }}', '$0 ~ p', --, notes]", []string{
			"mcpgen.yaml:10:26: tools[0].handler.command[2]: " + spliced}},
		{"argument spliced into a sed program", "command: [sed, -n, 's/${{ args.pattern }}/x/p', --, notes]", []string{
			"mcpgen.yaml:10:26: tools[0].handler.command[2]: " + spliced}},
		{"argument spliced into env", "command: [env, 'X=${{ args.pattern }}', ./run.sh]", []string{
			"mcpgen.yaml:10:22: tools[0].handler.command[1]: " + spliced}},
		{"argument as a jq program", "command: [jq, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:21: tools[0].handler.command[1]: " + runs("jq")}},
		{"argument as env bash -ec code", "command: [env, bash, -ec, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:33: tools[0].handler.command[3]: " + codeValue("-ec")}},
		{"argument as node --eval code", "command: [node, --eval, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:31: tools[0].handler.command[2]: " + codeValue("--eval")}},
		{"argument as code for a shell by another name", "command: [./my-shell, -c, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:33: tools[0].handler.command[2]: " + codeValue("-c")}},
		{"argument run by xargs", "command: [xargs, -0, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:28: tools[0].handler.command[2]: " + runs("xargs")}},
		{"argument run by find -exec", "command: [find, ., -exec, grep, '${{ args.pattern }}', '{}', ';']", []string{
			"mcpgen.yaml:10:39: tools[0].handler.command[4]: " + execLine}},
		{"awk program after --", "command: [awk, --, '${{ args.pattern }}', notes]", []string{
			"mcpgen.yaml:10:26: tools[0].handler.command[2]: " + runs("awk")}},
		{"sed script after --", "command: [sed, -n, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:30: tools[0].handler.command[3]: " + runs("sed")}},
		{"jq filter after --", "command: [jq, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:25: tools[0].handler.command[2]: " + runs("jq")}},
		{"sh -c code after --", "command: [sh, -c, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:29: tools[0].handler.command[3]: " + shellText("sh")}},
		{"shell script file after --", "command: [bash, -e, --, '${{ args.pattern }}', x]", []string{
			"mcpgen.yaml:10:31: tools[0].handler.command[3]: " + shellText("bash")}},
		{"shell code chosen among options", "command: [sh, \"${{ args.path == 'x' ? '-c' : '-e' }}\", --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:66: tools[0].handler.command[3]: " + shellText("sh")}},
		{"python3 script after --", "command: [python3, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:30: tools[0].handler.command[2]: " + runs("python3")}},
		{"perl -e code before --, argument after", "command: [perl, -e, 'print @ARGV', --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:46: tools[0].handler.command[4]: " + runs("perl")}},
		{"command run by xargs", "command: [xargs, -0, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:32: tools[0].handler.command[3]: " + runs("xargs")}},
		{"code run by timeout 5 sh -c", "command: [timeout, 5, sh, -c, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:41: tools[0].handler.command[5]: " + runs("timeout")}},
		{"code run by env python3 -c", "command: [env, X=1, python3, -c, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:44: tools[0].handler.command[5]: " + runs("env")}},
		{"command run by nice", "command: [nice, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:27: tools[0].handler.command[2]: " + runs("nice")}},
		{"command run by ssh", "command: [ssh, host, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:32: tools[0].handler.command[3]: " + runs("ssh")}},
		{"command run by kubectl exec", "command: [kubectl, exec, pod, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:41: tools[0].handler.command[4]: " + notData("kubectl")}},
		{"code run by find -exec after --", "command: [find, ., -exec, sh, -c, --, '${{ args.pattern }}', ';']", []string{
			"mcpgen.yaml:10:45: tools[0].handler.command[6]: " + execLine}},
		{"a program of the config that is not there", "command: [./nosuch.sh, --, '${{ args.pattern }}']", []string{
			"mcpgen.yaml:10:34: tools[0].handler.command[2]: " + notData("nosuch.sh")}},
		{"shell options with values before its script", "command: [sh, -o, errexit, -c, 'grep -- \"$1\" notes', --, '${{ args.pattern }}']", nil},
		{"arguments after -- of data programs", "command: [ls, -l, --, '${{ args.pattern }}']\ntimeout: 1s\nmax_output: 1KiB", nil},
		{"argument as an option's value", "command: [grep, -e, '${{ args.pattern }}', --, notes]", []string{
			"mcpgen.yaml:10:27: tools[0].handler.command[2]: " + codeValue("-e")}},
		{"arguments after -- are operands", "command: [grep, -rn, --, '${{ args.pattern }}', '${{ args.path }}']", nil},
		{"arguments after sh -c code and -- are data", "command: [sh, -c, 'grep -- \"$1\" notes', --, '${{ args.pattern }}']", nil},
		{"a shell's options end at --", "command: [bash, -x, --, ./run.sh, '${{ args.pattern }}']", nil},
		{"choices written in the expression", "command: [ls, \"${{ args.pattern == 'all' ? ['-a', '-l'] : [] }}\", \"--sort=${{ args.path == 't' ? 'time' : 'size' }}\"]", nil},
		{"numbers and booleans", "command: [head, '-n${{ len(args.pattern) }}', '${{ args.path == \"\" }}']", nil},
		{"command and script", "command: [ls]\nscript: ls", []string{
			"mcpgen.yaml:11:7: tools[0].handler.script: give exactly one of command, script; found command and script"}},
		{"expression in a script", "script: grep -- '${{ args.pattern }}' .", []string{
			`mcpgen.yaml:10:15: tools[0].handler.script: a script is static text and cannot hold ${{ expressions }}; pass arguments in params (read them as "$1") or env (read them as "$NAME")`}},
		{"shell from an argument", "script: ls\nshell: '${{ args.pattern }}'", []string{
			"mcpgen.yaml:11:14: tools[0].handler.shell: the program is fixed text: arguments cannot choose what runs"}},
		{"shell without a script", "command: [ls]\nshell: bash", []string{
			"mcpgen.yaml:11:14: tools[0].handler.shell: shell runs a script; this handler has a command"}},
		{"params without a script", "command: [ls]\nparams: [a]", []string{
			"mcpgen.yaml:11:15: tools[0].handler.params: params are the positional parameters of a script; with command, write the values in command"}},
		{"bad env name", "command: [env]\nenv: {'A-B': x, OK: '${{ args.nope }}'}", []string{
			`mcpgen.yaml:11:20: tools[0].handler.env.A-B: "A-B" is not a variable name: use letters, digits and '_'`,
			`mcpgen.yaml:11:37: tools[0].handler.env.OK: expr: unknown field nope`}},
		{"bad env_allow", "command: [env]\nenv_allow: [HOME, 'X=1']", []string{
			`mcpgen.yaml:11:25: tools[0].handler.env_allow[1]: "X=1" is not a variable name`}},
		{"unknown output", "command: [ls]\noutput: yaml", []string{
			`mcpgen.yaml:11:15: tools[0].handler.output: expected one of text, json, got "yaml"`}},
		{"bad exit code", "command: [ls]\nok_exit_codes: [0, 256]", []string{
			"mcpgen.yaml:11:26: tools[0].handler.ok_exit_codes[1]: 256 is not an exit status (0 to 255)"}},
		{"misspelt field", "command: [ls]\ntimout: 1s", []string{
			`mcpgen.yaml:11:7: tools[0].handler: unknown field "timout"; did you mean "timeout"?`}},
		{"bad duration", "command: [ls]\ntimeout: soon", []string{
			`mcpgen.yaml:11:16: tools[0].handler.timeout: expected a duration such as 500ms, 30s or 2m, got "soon"`}},
		{"progress pattern is not a regexp", "command: [ls]\nprogress: {pattern: '(?P<done>\\d+'}", []string{
			"mcpgen.yaml:11:27: tools[0].handler.progress.pattern: not a regular expression: missing closing ): `(?P<done>\\d+`"}},
		{"progress pattern without done", "command: [ls]\nprogress:\n  pattern: '(\\d+)/(?P<total>\\d+)'", []string{
			`mcpgen.yaml:12:18: tools[0].handler.progress.pattern: the pattern needs a group named done for the progress so far, as in (?P<done>\d+)/(?P<total>\d+)`}},
		{"progress with neither lines nor pattern", "command: [ls]\nprogress: {from: stderr}", []string{
			"mcpgen.yaml:11:17: tools[0].handler.progress: give exactly one of lines, pattern"}},
		{"progress with lines false", "command: [ls]\nprogress: {lines: false}", []string{
			"mcpgen.yaml:11:17: tools[0].handler.progress: progress needs `lines: true` (each line is a step) or a `pattern` with a (?P<done>...) group"}},
		{"progress with lines and pattern", "command: [ls]\nprogress: {lines: true, pattern: x}", []string{
			"mcpgen.yaml:11:31: tools[0].handler.progress.pattern: give exactly one of lines, pattern; found lines and pattern"}},
		{"negative progress total", "command: [ls]\nprogress: {lines: true, total: -1}", []string{
			"mcpgen.yaml:11:38: tools[0].handler.progress.total: the total cannot be negative"}},
		{"progress from elsewhere", "command: [ls]\nprogress: {lines: true, from: stdin}", []string{
			`mcpgen.yaml:11:37: tools[0].handler.progress.from: expected one of stdout, stderr, got "stdin"`}},
		{"missing program is a warning", "command: [no-such-program-mcpgen]", []string{
			`mcpgen.yaml:10:17: warning: tools[0].handler.command[0]: program "no-such-program-mcpgen" not found on PATH`}},
		{"missing dir is a warning", "command: [ls]\ndir: no/such/dir", []string{
			`mcpgen.yaml:11:12: warning: tools[0].handler.dir:`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := handlertest.Diagnose(t, registry(), tool([]string{"pattern", "path"}, tt.handler))
			var got []string
			for i, d := range ds {
				d.File = filepath.Base(d.File)
				s := d.String()
				if i < len(tt.want) && strings.HasSuffix(tt.want[i], ":") {
					s = s[:min(len(s), len(tt.want[i]))] // the rest names a temporary directory
				}
				if i < len(tt.want) && strings.Contains(tt.want[i], "PATH") {
					s, _, _ = strings.Cut(s, " (")
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProgramsByPath: a program given by its path is judged by what it is,
// not by its name: a link to a shell is a shell whatever it is called, a
// script (#!) reads its operands as its own positional parameters, and a
// program mcpgen does not know gets no argument.
func TestProgramsByPath(t *testing.T) {
	t.Parallel()
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	for _, name := range []string{"grep", "my-shell"} {
		if err := os.Symlink(sh, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs("testdata/args.sh")
	if err != nil {
		t.Fatal(err)
	}
	shellName := filepath.Base(sh)
	for _, tt := range []struct{ name, program, want string }{
		{"a shell linked as grep", filepath.Join(dir, "grep"), shellText(shellName)},
		{"a shell by another name", filepath.Join(dir, "my-shell"), shellText(shellName)},
		{"a program that runs others", "/usr/bin/env", runs("env")},
		{"a script", script, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ds := handlertest.Diagnose(t, registry(), tool([]string{"pattern"},
				"command: ["+tt.program+", --, '${{ args.pattern }}']"))
			var got []string
			for _, d := range ds {
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
