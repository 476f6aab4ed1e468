package shellkind

import (
	"fmt"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// checkPlacement enforces where an argument may reach a command's argv: an
// allow-list of places known to be data, not a list of places known to be
// code. mcpgen cannot know which argv positions an arbitrary program reads
// as code (`-c`, `-e` and `--eval` values, the program operand of awk, sed
// and jq, what xargs, env, timeout and find -exec run), so it refuses at
// load every place it does not know to be data:
//
//   - an element may carry an argument only if it is exactly one
//     ${{ expression }} (no text around it, which would be program text
//     or an option written by the config), it comes after a literal `--`,
//     where programs stop reading options, and the program reads that
//     operand as data (see operands): a program of dataPrograms; a shell,
//     after its program text (the -c string or the script file); a script
//     given by its path, whose operands are its positional parameters;
//   - anywhere else, an expression must be inert: it yields only numbers,
//     booleans or values written in the expression itself
//     (`${{ args.all ? ['-a'] : [] }}`), so the argument chooses among the
//     author's words but cannot write its own.
//
// elems[i] is command[i+1]; command[0], the program, is fixed text
// (checked elsewhere), so an argument is never a command's first word.
func checkPlacement(env handlers.BuildEnv, cmd []spec.Value, elems []elem, resolved string) {
	kind, name := programOperands(cmd[0].Node.Value, resolved)
	dataFrom := kind.dataFrom(cmd, elems)
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
		case kind == shellOperands && i+1 < dataFrom:
			env.Diag(e.field, fmt.Sprintf("%s reads this operand as its program (the -c string or the script "+
				"file); an argument goes after it: [%s, -c, 'grep -- \"$1\" notes', --, \"${{ args.pattern }}\"]",
				name, name))
		case i+1 < dataFrom:
			env.Diag(e.field, fmt.Sprintf("%s is not known to read its operands as data: it could run them as "+
				"code or as a command (as awk, sed, jq, python3, xargs, env, timeout or find -exec do); %s",
				name, placementHint))
		}
	}
}

// placementHint shows the places an argument may take.
const placementHint = "give it an element of its own after a literal `--`, for a program that reads its " +
	"operands as data (grep, ls, cat, wc, sort..., a shell after its script, a script of yours given by its " +
	"path): [grep, -n, --, \"${{ args.pattern }}\", \"${{ args.path }}\"]; or use `script` and read it from " +
	"`params` (\"$1\"), `env` or `stdin`"
