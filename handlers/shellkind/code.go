package shellkind

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// checkPlacement enforces what an argument may fill in a command's argv,
// judged by what the argument can hold (its declared schema) and where it
// lands (the element before it, the program):
//
//   - an argument that holds no text of the caller's (a number, a
//     boolean, an enum whose values do not start with '-', a choice
//     among values written in the expression) may fill any element;
//   - a word (a string whose anchored `pattern` allows only letters,
//     digits and -_.:/@+,% and no leading '-') may fill any element but
//     one mcpgen knows to be program text or a command: the value of a
//     code-taking option (`-c`, `-e`, `--eval`, find's `-exec`, those of
//     code_options), or an operand of a program that runs its operands
//     (a shell, an interpreter, awk, sed, jq, xargs, env...);
//   - any other string may be the value of a literal option (`-n X`,
//     `--author X`, or `--name=X` as one element), an operand of a program
//     known to read its operands as data (grep, ls, echo...) or of a
//     script of the config's, and anything after a literal `--` such a
//     program reads as data, or after a literal `python3 -c PROGRAM` (its
//     sys.argv). Before `--`, a value starting with '-' is refused at call
//     time, even with allow_flags. Anywhere else it is refused here.
//
// elems[i] is command[i+1]; command[0], the program, is fixed text
// (checked elsewhere), so an argument is never a command's first word.
func checkPlacement(env handlers.BuildEnv, cmd []spec.Value, elems []elem, resolved string, codeOpts []string) {
	p := newPlaces(cmd, elems, resolved, codeOpts)
	props := argSchemas(env)
	for i := range elems {
		e := &elems[i]
		if e.v.IsConst() || e.v.Inert() {
			continue
		}
		at := p.of(i + 1)
		if !e.v.IsExpression() {
			p.checkSpliced(env, e, at)
			continue
		}
		h, list := argHolds(props, e.v.Path())
		switch {
		case h == noText, h == aWord && at != codePlace && at != runPlace:
		case at == dataPlace:
			e.checkFlag = false
		case at == optionValuePlace && list:
			env.Diag(e.field, fmt.Sprintf("a list would spread over several elements here, and only the first "+
				"is the value of %s; pass one string (give the argument a type other than array)", p.prev(i+1)))
		case at == optionValuePlace:
			e.checkFlag, e.strict, e.single = true, true, true
		case at == dataOperandPlace:
			e.checkFlag, e.strict = true, true
		default:
			env.Diag(e.field, p.refusal(i+1, at))
		}
	}
}

// checkSpliced allows an expression spliced into text only as the value
// of a long option written as one element: `--name=${{ args.name }}`.
func (p *places) checkSpliced(env handlers.BuildEnv, e *elem, at place) {
	prefix, ok := e.v.Prefixed()
	if ok && optionEq.MatchString(prefix) && !p.codeOption(strings.TrimSuffix(prefix, "=")) &&
		at != codePlace && at != runPlace {
		return
	}
	env.Diag(e.field, "an argument spliced into text could become program text or an option "+
		"(as in `python3 -c \"print('${{ args.x }}')\"`); "+placementHint)
}

// optionEq is an option written with its value in one element.
var optionEq = regexp.MustCompile(`^--?[A-Za-z0-9][A-Za-z0-9_.-]*=$`)

// refusal explains why an element at cmd index j may not hold free text.
func (p *places) refusal(j int, at place) string {
	switch {
	case at == codePlace && p.kind == shellOperands:
		return fmt.Sprintf("%s reads this operand as its program (the -c string or the script file); an "+
			"argument goes after it: [%s, -c, 'grep -- \"$1\" notes', --, \"${{ args.pattern }}\"]",
			p.name, p.name)
	case at == codePlace && p.codeOption(p.prev(j)):
		return fmt.Sprintf("the value of %s is program text or a command; %s", p.prev(j), placementHint)
	case at == codePlace && p.afterExec(j):
		return "the elements after find's -exec are a command line; " + placementHint
	case at == codePlace:
		return fmt.Sprintf("%s runs its operands as code or as a command (as awk, sed, jq, python3, xargs, "+
			"env, timeout do); %s", p.name, placementHint)
	}
	return fmt.Sprintf("%s is not known to read its operands as data: it could run them as code or as a "+
		"command (as kubectl exec, ssh or a program of yours could); %s", p.name, placementHint)
}

// placementHint shows the places an argument may take.
const placementHint = "declare the argument so it cannot hold code or an option (type integer, number or " +
	"boolean, an enum, or a pattern such as '^[a-z0-9][a-z0-9-]*$'), or pass it as a literal option's " +
	"value ([git, log, --author, \"${{ args.author }}\"]) or after a literal `--` for a program that reads " +
	"its operands as data ([grep, -n, --, \"${{ args.pattern }}\"]); or use `script` and read it from " +
	"`params` (\"$1\"), `env` or `stdin`"
