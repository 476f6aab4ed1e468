package load

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Severity of a Diagnostic.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// A Diagnostic is one problem found in a config, at a position in the user's
// own file.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`             // 1-based; 0 when unknown
	Col      int      `json:"column,omitempty"` // 1-based; 0 when unknown
	Path     string   `json:"path,omitempty"`   // e.g. tools[1].handler.timeout
	Message  string   `json:"message"`
	Hint     string   `json:"hint,omitempty"` // e.g. did you mean "timeout"?
	Severity Severity `json:"severity"`
	// Source is the line of the file at fault, shown under the message
	// with a caret at Col; set for YAML syntax errors.
	Source string `json:"source,omitempty"`
}

// String formats d as "file:line:col: [warning: ]path: message[; hint]",
// followed by the source line and a caret under the column when d has
// them.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:", d.Line)
		if d.Col > 0 {
			fmt.Fprintf(&b, "%d:", d.Col)
		}
	} else {
		b.WriteString(":")
	}
	b.WriteString(" ")
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	if d.Path != "" {
		b.WriteString(d.Path)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	if d.Hint != "" {
		b.WriteString("; ")
		b.WriteString(d.Hint)
	}
	b.WriteString(d.caret())
	return b.String()
}

// Diagnostics is every problem found in one run.
type Diagnostics []Diagnostic

// Errors counts the diagnostics of severity Error.
func (ds Diagnostics) Errors() int {
	n := 0
	for _, d := range ds {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

// Warnings counts the diagnostics of severity Warning.
func (ds Diagnostics) Warnings() int { return len(ds) - ds.Errors() }

// Sort orders the diagnostics by file, line and column, dropping exact
// duplicates.
func (ds Diagnostics) Sort() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col))
	})
	return slices.Compact(ds)
}

// Summary is the closing line of a report: "2 errors, 1 warning".
func (ds Diagnostics) Summary() string {
	plural := func(n int, w string) string {
		if n == 1 {
			return "1 " + w
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	e, w := ds.Errors(), ds.Warnings()
	switch {
	case e > 0 && w > 0:
		return plural(e, "error") + ", " + plural(w, "warning")
	case w > 0:
		return plural(w, "warning")
	default:
		return plural(e, "error")
	}
}

// Reported tells whether ds holds a diagnostic at path in file.
func (ds Diagnostics) Reported(file, path string) bool {
	for _, d := range ds {
		if d.File == file && d.Path == path {
			return true
		}
	}
	return false
}

// Error makes Diagnostics usable as an error: one diagnostic per line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// Annotation formats d as a GitHub Actions workflow command, which GitHub
// shows as an annotation on the line of the pull request; title, when
// not empty, heads it.
func (d Diagnostic) Annotation(title string) string {
	msg := d.Message
	if d.Path != "" {
		msg = d.Path + ": " + msg
	}
	if d.Hint != "" {
		msg += "; " + d.Hint
	}
	props := fmt.Sprintf("file=%s,line=%d,col=%d", ghProperty(d.File), d.Line, d.Col)
	if title != "" {
		props += ",title=" + ghProperty(title)
	}
	return fmt.Sprintf("::%s %s::%s", d.Severity, props, ghData.Replace(msg))
}

var (
	ghData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
)

// A Reporter records diagnostics about one file at the positions of its
// YAML nodes.
type Reporter struct {
	file string
	list *Diagnostics
	src  []byte // the file's contents; nil when unknown
	// origins are the files of nodes read from another file (an
	// overlay's), where they are reported
	origins map[*yaml.Node]*origin
}

// Reporter returns a Reporter that appends diagnostics about f to list.
func (f *File) Reporter(list *Diagnostics) Reporter {
	return Reporter{file: f.Path, list: list, src: f.src, origins: f.origins}
}

// At records an error at node n (at line 1 when n is nil); path names the
// field, such as tools[1].handler.timeout.
func (d Reporter) At(n *yaml.Node, path, msg, hint string) {
	d.AtOffset(Error, n, -1, path, msg, hint)
}

// AtOffset records a diagnostic at n or, when off >= 0, at byte off of a
// scalar's value, as far as the scalar's style lets the position be known:
// on the first line of a plain or quoted scalar, and on any line of a
// literal block scalar (|).
func (d Reporter) AtOffset(sev Severity, n *yaml.Node, off int, path, msg, hint string) {
	if o := d.origins[n]; o != nil {
		d.file, d.src = o.file, o.src
	}
	diag := Diagnostic{File: d.file, Path: path, Message: msg, Hint: hint, Severity: sev}
	if n != nil {
		diag.Line, diag.Col = n.Line, n.Column
		if line, col, ok := d.blockPosition(n, off); ok {
			diag.Line, diag.Col = line, col
		} else if off >= 0 { // finding the line reads the file up to it
			diag.Col += scalarOffset(n, off, d.Line(n.Line))
		}
	}
	if diag.Line == 0 {
		diag.Line = 1
	}
	*d.list = append(*d.list, diag)
}

// Line returns line number i (1-based) of the file as written, or nil when
// the file's contents are not known.
func (d Reporter) Line(i int) []byte {
	src := d.src
	for n := 1; src != nil; n++ {
		l, rest, more := bytes.Cut(src, []byte("\n"))
		if n == i {
			return l
		}
		if !more {
			break
		}
		src = rest
	}
	return nil
}

// scalarOffset maps an offset into a scalar's value to a column offset in the
// file. It follows the offset only when the text before it stands as it is
// on the scalar's first line (source line; nil when unknown): after an
// escape sequence, a line break or a tag, and in block scalars, the
// position is the scalar's start.
func scalarOffset(n *yaml.Node, off int, source []byte) int {
	if off < 0 || n.Kind != yaml.ScalarNode || off > len(n.Value) {
		return 0
	}
	before := n.Value[:off]
	quote := 0
	switch n.Style {
	case 0:
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		quote = 1
	default:
		return 0
	}
	if strings.Contains(before, "\n") || !onLine(source, n.Column-1+quote, before) {
		return 0
	}
	// yaml.v3 counts columns in characters, offsets are in bytes
	return utf8.RuneCountInString(before) + quote
}

// onLine reports whether text is written on line from character col on; a
// line that is not known is trusted.
func onLine(line []byte, col int, text string) bool {
	if line == nil {
		return true
	}
	s := string(line)
	for range col {
		_, size := utf8.DecodeRuneInString(s)
		if size == 0 {
			return false
		}
		s = s[size:]
	}
	return strings.HasPrefix(s, text)
}

// blockPosition places byte off of a literal block scalar's value: its line
// k is line k after the indicator, less the block's indentation. It reports
// false for other scalars and when the source does not show that line.
func (d Reporter) blockPosition(n *yaml.Node, off int) (int, int, bool) {
	if n.Style != yaml.LiteralStyle || off < 0 || off > len(n.Value) {
		return 0, 0, false
	}
	start := strings.LastIndexByte(n.Value[:off], '\n') + 1
	text, _, _ := strings.Cut(n.Value[start:], "\n")
	line := n.Line + 1 + strings.Count(n.Value[:start], "\n")
	src := string(d.Line(line))
	indent := len(src) - len(text)
	if indent < 0 || src[indent:] != text || strings.TrimLeft(src[:indent], " ") != "" {
		return 0, 0, false
	}
	return line, indent + 1 + utf8.RuneCountInString(n.Value[start:off]), true
}
