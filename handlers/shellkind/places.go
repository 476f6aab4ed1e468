package shellkind

import (
	"strings"

	"github.com/mcpgen/mcpgen/spec"
)

// place is what a program makes of an argv element, as far as mcpgen
// knows.
type place int

const (
	// codePlace: program text or a command.
	codePlace place = iota
	// runPlace: after `--` of a program not known to read data, where
	// many take a command (kubectl exec, docker run, npm run).
	runPlace
	// operandPlace: an operand of a program mcpgen does not know.
	operandPlace
	// optionValuePlace: after a literal option that is not code-taking.
	optionValuePlace
	// dataOperandPlace: an operand of a data program or a script of the
	// config's, before `--`: data unless it reads as an option.
	dataOperandPlace
	// dataPlace: read as data whatever it holds.
	dataPlace
)

// places tells the place of each element of one command.
type places struct {
	kind     operands
	name     string
	cmd      []spec.Value
	elems    []elem // elems[i] is cmd[i+1]
	dataFrom int
	codeOpts map[string]bool
}

func newPlaces(cmd []spec.Value, elems []elem, resolved string, codeOpts []string) *places {
	kind, name := programOperands(cmd[0].Node.Value, resolved)
	p := &places{kind: kind, name: name, cmd: cmd, elems: elems, codeOpts: map[string]bool{}}
	p.dataFrom = kind.dataFrom(cmd, elems)
	for _, o := range codeOpts {
		p.codeOpts[o] = true
	}
	return p
}

// of returns the place of cmd[j].
func (p *places) of(j int) place {
	dashes := p.afterDashes(j)
	switch {
	case j >= p.dataFrom && (dashes || p.kind == pythonOperands):
		return dataPlace
	case p.kind == shellOperands || p.kind == codeOperands || p.kind == pythonOperands,
		p.afterExec(j), p.codeOption(p.prev(j)):
		return codePlace
	case dashes && p.kind == unknownOperands:
		return runPlace
	case isOption(p.prev(j)):
		return optionValuePlace
	case p.kind == dataOperands || p.kind == scriptOperands:
		return dataOperandPlace
	}
	return operandPlace
}

// lit returns cmd[j] when it is written in the config, "" otherwise.
func (p *places) lit(j int) string {
	if j < 1 || j >= len(p.cmd) || !p.elems[j-1].v.IsConst() {
		return ""
	}
	return p.cmd[j].Node.Value
}

// prev returns the element before cmd[j] when it is written in the config.
func (p *places) prev(j int) string { return p.lit(j - 1) }

// afterDashes reports whether a literal `--` comes before cmd[j].
func (p *places) afterDashes(j int) bool {
	for k := 1; k < j; k++ {
		if p.lit(k) == "--" {
			return true
		}
	}
	return false
}

// afterExec reports whether cmd[j] is in the command line of find's
// -exec (and the like), which ends at a literal `;` or `+`.
func (p *places) afterExec(j int) bool {
	in := false
	for k := 1; k < j; k++ {
		switch v := p.lit(k); {
		case execOptions[v]:
			in = true
		case v == ";" || v == "+":
			in = false
		}
	}
	return in
}

// codeOption reports whether the literal option o takes program text or a
// command: a known one, one of code_options, or a cluster of short
// options ending with -c, -e or -E (`-ec`).
func (p *places) codeOption(o string) bool {
	if codeOptions[o] || p.codeOpts[o] {
		return true
	}
	if len(o) > 2 && o[0] == '-' && o[1] != '-' && isLetters(o[1:]) {
		return strings.ContainsRune("ceE", rune(o[len(o)-1]))
	}
	return false
}

// isOption reports whether s, written in the config, is an option that
// may take the next element as its value.
func isOption(s string) bool {
	return len(s) > 1 && s[0] == '-' && s != "--" && !strings.Contains(s, "=")
}

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'A' || r > 'z' || r > 'Z' && r < 'a' {
			return false
		}
	}
	return true
}
