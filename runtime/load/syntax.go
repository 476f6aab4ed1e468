package load

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// syntaxError words a YAML syntax error of data for a diagnostic: at the
// line and column where the parser stopped, with a hint for the mistakes
// that cause most of them.
//
// gopkg.in/yaml.v3 reports only a line, and for many errors the line of
// the enclosing block rather than the one at fault (a mis-indented key is
// reported at the mapping it breaks, lines above, counted from 0). Where
// the parser stopped is found by parsing prefixes of data again (see
// stoppedAt), only when it does not parse, so the common path pays nothing.
func syntaxError(file string, data []byte, err error) Diagnostic {
	d := Diagnostic{File: file, Line: 1, Message: "yaml: " + err.Error(), Severity: Error}
	f := fault{msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		d.Message, f.msg = "yaml: "+m[2], m[2]
	}
	lines := strings.Split(string(data), "\n")
	flow := strings.HasPrefix(f.msg, "did not find expected ',' or ")
	off, ok := stoppedAt(data, err, flow)
	if !ok {
		return d
	}
	if !strings.Contains(f.msg, "end of stream") {
		off = tokenStart(data, off, err)
	}
	f.line, f.col = position(data, off)
	if f.msg == "could not find expected ':'" && f.line != d.Line && d.Line <= len(lines) {
		// the shortest failing prefix ends where a key that never gets its
		// ':' was found to be one (after a long quoted key, lines below);
		// yaml.v3 names the line where the key starts
		f.line, f.col = d.Line, keyColumn(lines[d.Line-1])
	}
	msg := f.withContext(data, off, flow, d.Line+1)
	d.Line, d.Col, d.Message = f.line, f.col, "yaml: "+msg
	if f.line <= len(lines) {
		d.Source = strings.TrimSuffix(lines[f.line-1], "\r")
	}
	d.Hint = syntaxHint(f, lines)
	return d
}

// fault is where and why the YAML parser stopped.
type fault struct {
	msg       string // the parser's message, without its line
	context   string // what it was reading, as "while scanning a quoted scalar"
	line, col int    // 1-based; col counts characters
}

// withContext sets what the parser was reading at the fault, at off in
// data, and returns the message with it: an unclosed quote is where it
// starts, an unclosed [ or { at flowLine (which yaml.v3 names, counted from
// 0, for errors inside [ ] or { }).
func (f *fault) withContext(data []byte, off int, flow bool, flowLine int) string {
	switch {
	case strings.Contains(f.msg, "end of stream") && off < len(data) && (data[off] == '"' || data[off] == '\''):
		// the shortest failing prefix ends at the quote that is never
		// closed: the place that matters
		f.context = "while scanning a quoted scalar"
		return f.msg + " " + f.context + " that starts here"
	case flow:
		f.context = "while parsing a flow mapping"
		if strings.HasSuffix(f.msg, "']'") {
			f.context = "while parsing a flow sequence"
		}
		if flowLine != f.line {
			return f.msg + " (" + f.context + " at line " + strconv.Itoa(flowLine) + ")"
		}
	}
	return f.msg
}

// stoppedAt returns the offset of the byte of data where the parser
// stopped with err. The parser reads a stream: it fails on a prefix of data
// that holds the fault just as on the whole, and does not fail, or fails
// otherwise, on a prefix that stops short of it; so the shortest prefix
// that fails with err, found by bisection (a score of parses), ends at the
// fault. Inside [ ] or { }, a prefix that ends after an entry fails alike
// for want of the ',' or bracket that follows it, and one that ends inside
// the token at fault (a quoted scalar over lines) does not fail alike; so
// flow prefixes are tried with that token closed and a ',' added (see
// flowEnds). When only the whole of data fails so (a [ never closed), the
// fault is at its end.
func stoppedAt(data []byte, err error, flow bool) (int, bool) {
	same := func(b []byte) bool {
		e := firstError(b)
		return e != nil && e.Error() == err.Error()
	}
	fails := func(k int) bool {
		if !flow {
			return same(data[:k])
		}
		for _, end := range flowEnds(data[:k]) {
			if same(append(data[:k:k], end...)) {
				return true
			}
		}
		return false
	}
	if !same(data) {
		return 0, false
	}
	if !fails(len(data)) { // the end of data is the fault
		return len(bytes.TrimRight(data, " \t\r\n")), true
	}
	lo, hi := 0, len(data) // the prefix of lo bytes does not fail so, hi's does
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi - 1, true
}

// flowEnds returns what may end the token a prefix cuts short (a quoted
// scalar, an anchor or alias without its name) followed by a ',': after an
// entry of [ ] or { } that makes the error another (an unclosed quote, a
// missing entry), while after, or inside, the token at fault it keeps it.
func flowEnds(prefix []byte) []string {
	if c := prefix[len(prefix)-1]; c == '&' || c == '*' {
		return []string{"a ,"}
	}
	return []string{" ,", ` " ,`, ` ' ,`}
}

// tokenStart returns where the token that ends at off starts, when it is a
// quoted scalar or a [ ] or { } collection: the parser takes such a token
// in whole before it can tell whether it is a key, so the shortest failing
// prefix ends with it, while the fault is where it starts. The start found
// in the text is taken when the token cut short there, closed at once,
// fails with err too.
func tokenStart(data []byte, off int, err error) int {
	if off >= len(data) {
		return off
	}
	if c := data[off]; c != '"' && c != '\'' && c != ']' && c != '}' {
		return off
	}
	start, depth := off, 0
scan:
	for i := off; i >= 0; i-- {
		switch data[i] {
		case '"', '\'':
			if i = openingQuote(data, i); depth == 0 {
				start = i
				break scan
			}
		case ']', '}':
			depth++
		case '[', '{':
			if depth--; depth == 0 {
				start = i
				break scan
			}
		}
	}
	closed := append(data[:start+1:start+1], map[byte]byte{'"': '"', '\'': '\'', '[': ']', '{': '}'}[data[start]])
	if e := firstError(closed); start == off || e == nil || e.Error() != err.Error() {
		return off
	}
	return start
}

// openingQuote returns where the quoted scalar whose closing quote is at
// end opens: the previous quote of the same kind that is not escaped (by a
// backslash in double quotes, by doubling in single quotes).
func openingQuote(data []byte, end int) int {
	q := data[end]
	for i := end - 1; i >= 0; i-- {
		switch {
		case data[i] != q:
		case q == '"' && (bytes.LastIndexFunc(data[:i], func(r rune) bool { return r != '\\' })+1-i)%2 != 0:
			// an odd run of backslashes escapes it
		case q == '\'' && i > 0 && data[i-1] == '\'':
			i-- // '' is a quote inside
		default:
			return i
		}
	}
	return end
}

// firstError parses every document of data and returns the first error.
func firstError(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// position returns the 1-based line and column (in characters) of the
// byte at off in data.
func position(data []byte, off int) (line, col int) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:start], []byte{'\n'}), 1 + utf8.RuneCount(data[start:off])
}

// exprColon finds a plain value holding an expression with ": " inside it.
var exprColon = regexp.MustCompile(`^\s*(- )?[^:#'"]*:\s+\$\{\{`)

// syntaxHint suggests a fix for the fault f, found in lines.
func syntaxHint(f fault, lines []string) string {
	line, text := f.line, ""
	if line <= len(lines) {
		text = lines[line-1]
	}
	atTab := f.col > 0 && f.col <= len(text) && text[f.col-1] == '\t'
	before := text[:min(max(f.col+2, 0), len(text))] // up to the mark, and a ${{ that starts there
	inExpr := strings.Contains(before, "${{") && !strings.Contains(before, "'${{") && !strings.Contains(before, `"${{`)
	switch {
	case inExpr && strings.Contains(f.context, "flow"):
		return `inside [ ] or { }, quote an expression: "${{ … }}"`
	case strings.Contains(f.context, "flow") && flowPlainTrouble.MatchString(unquoted(text)):
		return `inside [ ] or { }, quote a value holding "?" or "[": {url: "/x?page=2"}, {"items[0].id": 7}`
	case inExpr && strings.HasPrefix(f.msg, "did not find expected key"):
		return quoteExpr
	case strings.HasPrefix(f.msg, "mapping values are not allowed"):
		if exprColon.MatchString(text) || strings.Contains(text, "${{") && !strings.HasPrefix(strings.TrimSpace(text), "${{") {
			return quoteExpr
		}
		if prev := prevLine(lines, line); indent(text) > indent(prev) && holdsValue(prev) {
			return "this line is indented deeper than the one above; line up keys of the same mapping, or quote a value that holds \": \""
		}
		return `a value that holds ": " must be quoted`
	case strings.HasPrefix(f.msg, "did not find expected key"),
		strings.HasPrefix(f.msg, "did not find expected '-' indicator"):
		return "check this line's indentation: the keys of one mapping, and the dashes of one list, start in the same column"
	case strings.Contains(f.msg, "tab character") || atTab:
		return "indent with spaces; YAML does not allow tabs for indentation"
	case strings.Contains(f.context, "quoted scalar"):
		return "close the quote, or write a value with quotes inside it as a block (|)"
	case strings.Contains(f.msg, "cannot start any token"):
		return "a value starting with this character must be quoted"
	}
	return ""
}

// flowPlainTrouble finds what yaml.v3 cannot read in a plain value inside
// [ ] or { }: a "?" after other characters (/x?page=2), or a "[" right after
// a name (items[0]).
var flowPlainTrouble = regexp.MustCompile(`[^\s{\[,:]\?|\w\[`)

// unquoted is text without its quoted strings.
func unquoted(text string) string {
	return quotedRE.ReplaceAllString(text, `""`)
}

var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'`)

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

// keyColumn returns the 1-based column where the key of line starts,
// after its indentation and list dashes.
func keyColumn(line string) int {
	rest := strings.TrimLeft(line, " ")
	for strings.HasPrefix(rest, "- ") {
		rest = strings.TrimLeft(rest[2:], " ")
	}
	return 1 + utf8.RuneCountInString(line[:len(line)-len(rest)])
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
