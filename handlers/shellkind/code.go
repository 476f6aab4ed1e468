package shellkind

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// checkPlacement enforces where an argument may reach a command's argv.
// mcpgen cannot know which argv positions a program reads as code: `-c`,
// `-e` and `--eval` values, the program operand of awk, sed and jq, what
// xargs, env and find -exec run. So it does not guess by program name; it
// allows arguments only where they are plain operands, and refuses every
// other place at load:
//
//   - an element may carry an argument only if it is exactly one
//     ${{ expression }} (no text around it, which would be program text
//     or an option written by the config) and it comes after a literal
//     `--`, where programs stop reading options;
//   - anywhere else, an expression must be inert: it yields only numbers,
//     booleans or values written in the expression itself
//     (`${{ args.all ? ['-a'] : [] }}`), so the argument chooses among the
//     author's words but cannot write its own.
//
// elems[i] is command[i+1]; command[0], the program, is checked elsewhere.
func checkPlacement(env handlers.BuildEnv, cmd []spec.Value, elems []elem) {
	afterDashes := false
	for i, e := range elems {
		switch {
		case e.v.IsConst():
			afterDashes = afterDashes || cmd[i+1].Node.Value == "--"
		case e.v.Inert():
		case !e.v.IsExpression():
			env.Diag(e.field, "an argument spliced into text could become program text or an option "+
				"(as in `python3 -c \"print('${{ args.x }}')\"`); "+placementHint)
		case !afterDashes:
			env.Diag(e.field, "an argument before `--` could be read as an option's value or as program "+
				"text (`-c CODE`, `-e CODE`, an awk, sed or jq program); "+placementHint)
		}
	}
}

// placementHint shows the places an argument may take.
const placementHint = "give it an element of its own after a literal `--`: " +
	"[grep, -n, --, \"${{ args.pattern }}\", \"${{ args.path }}\"]; or use `script` and read it from " +
	"`params` (\"$1\"), `env` or `stdin`"
