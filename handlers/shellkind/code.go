package shellkind

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
)

// codeOptions maps interpreters to the one-letter options after which the
// next argument is program text: `sh -c CODE`, `python3 -c CODE`,
// `perl -e CODE`.
var codeOptions = map[string]string{
	"sh": "c", "bash": "c", "dash": "c", "zsh": "c", "ksh": "c", "mksh": "c", "ash": "c",
	"fish": "c", "csh": "c", "tcsh": "c", "pwsh": "c",
	"python": "c", "python2": "c", "python3": "c",
	"perl": "eE", "ruby": "e", "node": "ep", "php": "r", "lua": "e", "Rscript": "e", "osascript": "e",
}

// longCodeOptions are long forms of the same options.
var longCodeOptions = []string{"--command", "--eval", "--print", "-Command"}

// checkCode reports an argument spliced into program text on a command
// line, as in `[sh, -c, "grep ${{ args.x }} f"]` or `[env, python3, -c,
// ...]`: the interpreter would run it as code. Only literal text may follow
// an interpreter's code option; arguments go in params (`script`) or in
// elements of their own.
func checkCode(env handlers.BuildEnv, cmd []spec.Value) {
	interp, code := "", false
	for i, v := range cmd {
		n := v.Node
		if n == nil || n.Kind != yaml.ScalarNode {
			continue
		}
		letters := codeOptions[interp]
		computed := strings.Contains(n.Value, eval.Open)
		switch {
		case computed && interp != "" && (code || isCodeOption(n.Value, letters)):
			env.Diag(fmt.Sprintf("command[%d]", i), fmt.Sprintf("this is program text for %s, so an argument "+
				"spliced into it would run as code; use `script` and read arguments from params (\"$1\"), "+
				"or pass them as elements of their own", interp))
			return
		case computed:
			code = false
		case n.Value == "--" && interp != "":
			return // options end: what follows is data
		case codeOptions[filepath.Base(n.Value)] != "":
			interp, code = filepath.Base(n.Value), false
		default:
			code = interp != "" && isCodeOption(n.Value, letters)
		}
	}
}

// isCodeOption reports whether arg is an option taking program text: one
// of the letters in a cluster of short options (-c, -ec, -lc), or a long
// form (--eval).
func isCodeOption(arg, letters string) bool {
	for _, long := range longCodeOptions {
		if arg == long || strings.HasPrefix(arg, long+"=") {
			return true
		}
	}
	if len(arg) < 2 || arg[0] != '-' || arg[1] == '-' {
		return false
	}
	return strings.ContainsAny(arg[1:], letters)
}
