package load

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	yaml4 "go.yaml.in/yaml/v4"
	"gopkg.in/yaml.v3"
)

// syntaxError words a YAML syntax error of data for a diagnostic: at the
// line and column where the parser stopped, with a hint for the mistakes
// that cause most of them.
//
// gopkg.in/yaml.v3 reports only a line, and for many errors the line of
// the enclosing block rather than the one at fault (a mis-indented key is
// reported at the mapping it breaks, lines above). The same libyaml parser,
// as go.yaml.in/yaml/v4, reports where it stopped; the file is parsed again
// with it only when it does not parse, so the common path pays nothing.
func syntaxError(file string, data []byte, err error) Diagnostic {
	d := Diagnostic{File: file, Line: 1, Message: "yaml: " + err.Error(), Severity: Error}
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		d.Message = "yaml: " + m[2]
	}
	var le *yaml4.LoadError
	var doc yaml4.Node
	if !errors.As(yaml4.Unmarshal(data, &doc), &le) || le.Mark.Line == 0 {
		return d
	}
	mark, msg := le.Mark, le.Message
	switch {
	case strings.Contains(le.Message, "end of stream") && le.ContextMark.Line > 0:
		// at the end of the file, the place that matters is where the
		// unfinished construct (a quoted string, a flow list) starts
		mark, msg = le.ContextMark, msg+" "+le.ContextMsg+" that starts here"
	case strings.Contains(le.ContextMsg, "flow") && le.ContextMark.Line > 0 && le.ContextMark.Line != mark.Line:
		msg += " (" + le.ContextMsg + " at line " + strconv.Itoa(le.ContextMark.Line) + ")"
	}
	d.Line, d.Col, d.Message = mark.Line, mark.Column, "yaml: "+msg
	lines := strings.Split(string(data), "\n")
	if mark.Line <= len(lines) {
		d.Source = strings.TrimSuffix(lines[mark.Line-1], "\r")
	}
	d.Hint = syntaxHint(le, lines, mark)
	return d
}

// exprColon finds a plain value holding an expression with ": " inside it.
var exprColon = regexp.MustCompile(`^\s*(- )?[^:#'"]*:\s+\$\{\{`)

// syntaxHint suggests a fix for the error le, found at mark in lines.
func syntaxHint(le *yaml4.LoadError, lines []string, mark yaml4.Mark) string {
	line, text := mark.Line, ""
	if line <= len(lines) {
		text = lines[line-1]
	}
	atTab := mark.Column > 0 && mark.Column <= len(text) && text[mark.Column-1] == '\t'
	before := text[:min(max(mark.Column+2, 0), len(text))] // up to the mark, and a ${{ that starts there
	inExpr := strings.Contains(before, "${{") && !strings.Contains(before, "'${{") && !strings.Contains(before, `"${{`)
	switch {
	case inExpr && strings.Contains(le.ContextMsg, "flow"):
		return `inside [ ] or { }, quote an expression: "${{ … }}"`
	case inExpr && strings.HasPrefix(le.Message, "did not find expected key"):
		return quoteExpr
	case strings.HasPrefix(le.Message, "mapping values are not allowed"):
		if exprColon.MatchString(text) || strings.Contains(text, "${{") && !strings.HasPrefix(strings.TrimSpace(text), "${{") {
			return quoteExpr
		}
		if prev := prevLine(lines, line); indent(text) > indent(prev) && holdsValue(prev) {
			return "this line is indented deeper than the one above; line up keys of the same mapping, or quote a value that holds \": \""
		}
		return `a value that holds ": " must be quoted`
	case strings.HasPrefix(le.Message, "did not find expected key"),
		strings.HasPrefix(le.Message, "did not find expected '-' indicator"):
		return "check this line's indentation: the keys of one mapping, and the dashes of one list, start in the same column"
	case strings.Contains(le.Message, "tab character") || atTab:
		return "indent with spaces; YAML does not allow tabs for indentation"
	case strings.Contains(le.ContextMsg, "quoted scalar"):
		return "close the quote, or write a value with quotes inside it as a block (|)"
	case strings.Contains(le.Message, "cannot start any token"):
		return "a value starting with this character must be quoted"
	}
	return ""
}

// quoteExpr is the hint for an unquoted expression holding ": ".
const quoteExpr = `the ": " inside ${{ }} ends the value: quote the whole value, as in key: '${{ a ? b : c }}'`

// splitExpressions reports the keys of n that are the start of an unquoted
// ${{ expression }} cut at its ": " (`- ${{ a ? b : c }}` in a list is a
// mapping from "${{ a ? b" to "c }}"): YAML accepts it, and the value the
// config meant is gone.
func splitExpressions(n *yaml.Node, d Reporter) {
	if n == nil || n.Kind == yaml.AliasNode {
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Style == 0 && strings.HasPrefix(k.Value, "${{") && !strings.Contains(k.Value, "}}") {
				d.At(k, "", "an unquoted ${{ }} holding \": \" was read as a mapping key", quoteExpr)
			}
		}
	}
	for _, c := range n.Content {
		splitExpressions(c, d)
	}
}

// prevLine returns the last line before line (1-based) that is neither
// blank nor a comment.
func prevLine(lines []string, line int) string {
	for i := line - 2; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "#") {
			return lines[i]
		}
	}
	return ""
}

// holdsValue reports whether line is a key with its value on the same
// line, so that a deeper line below it cannot belong to it.
func holdsValue(line string) bool {
	_, v, ok := strings.Cut(line, ": ")
	v = strings.TrimSpace(v)
	return ok && v != "" && !strings.HasPrefix(v, "#") && v != "|" && v != ">" &&
		!strings.HasPrefix(v, "|") && !strings.HasPrefix(v, ">") && !strings.HasPrefix(v, "&")
}

// indent counts the spaces a line starts with.
func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// caret renders the source line of d and, under it, a caret at its column.
func (d Diagnostic) caret() string {
	if d.Source == "" || d.Col <= 0 {
		return ""
	}
	var pad strings.Builder
	i := 0
	for _, r := range d.Source {
		if i >= d.Col-1 {
			break
		}
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
		i++
	}
	return "\n    " + d.Source + "\n    " + pad.String() + "^"
}
