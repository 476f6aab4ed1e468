// Package templates renders the text of an mcpgen config: prompt messages,
// resource text, tool results. Templates are Go text/template with the sprig
// functions, minus those that read the environment or the network; they are
// parsed when the config loads and executed per call with missingkey=error.
package templates

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/Masterminds/sprig/v3"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// MaxOutput bounds what one execution may produce.
const MaxOutput = 4 << 20

// removed are sprig functions a config must not reach: they read the
// server's environment or the network.
var removed = []string{"env", "expandenv", "getHostByName"}

var funcs = func() template.FuncMap {
	m := sprig.TxtFuncMap()
	for _, name := range removed {
		delete(m, name)
	}
	m["repeat"] = func(n int, s string) (string, error) {
		if n < 0 || len(s)*n > MaxOutput {
			return "", fmt.Errorf("repeat: result larger than %d bytes", MaxOutput)
		}
		return strings.Repeat(s, n), nil
	}
	return m
}()

// Funcs returns the names of the functions templates may call.
func Funcs() template.FuncMap { return funcs }

// Template is a parsed template.
type Template struct {
	t    *template.Template
	text string
	lit  bool // text is the output; there is nothing to execute
}

// Literal returns a template that renders s as it is.
func Literal(s string) *Template { return &Template{text: s, lit: true} }

// Error is a parse or check error at a position inside the template text.
type Error struct {
	Line, Col int // 1-based, inside the template text; Col 0 when unknown
	Msg       string
	Hint      string
}

func (e *Error) Error() string { return e.Msg }

// Set parses many templates cheaply. Each template is a namespace of its
// own (a {{ define }} in one never replaces another's) and is handed only
// the functions its text names: giving every template all of sprig's
// functions costs more than parsing it, as Funcs checks each one. A text
// is parsed once for the same roots: a config that repeats a template (the
// same result text for many tools) shares one. A Set is safe for
// concurrent use, and so are its templates.
type Set struct {
	mu     sync.Mutex
	parsed map[string]*Template // by parsedKey
}

// NewSet returns an empty Set.
func NewSet() *Set { return &Set{parsed: map[string]*Template{}} }

// parsedKey names a text and the roots it was checked against: the names
// of each root, in order, or none for a root that takes any name.
func parsedKey(text string, roots map[string][]string) string {
	var b strings.Builder
	field := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	field(text)
	keys := make([]string, 0, 8) // a template has a few roots: on the stack
	for root := range roots {
		keys = append(keys, root)
	}
	slices.Sort(keys)
	for _, root := range keys {
		field(root)
		names := roots[root]
		if names == nil {
			b.WriteByte('*') // anything below, unlike an empty list
			continue
		}
		if !slices.IsSorted(names) { // they mostly come sorted
			names = slices.Sorted(slices.Values(names))
		}
		b.WriteString(strconv.Itoa(len(names)))
		b.WriteByte('[')
		for _, name := range names {
			field(name)
		}
	}
	return b.String()
}

// funcsIn returns the functions whose names appear in text as words
// ([A-Za-z_][A-Za-z0-9_]*): the only ones a template parsed from it can
// call.
func funcsIn(text string) template.FuncMap {
	used := template.FuncMap{}
	if !strings.Contains(text, "{{") {
		return used
	}
	for i := 0; i < len(text); {
		if !identStart(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (identStart(text[j]) || '0' <= text[j] && text[j] <= '9') {
			j++
		}
		if f, ok := funcs[text[i:j]]; ok {
			used[text[i:j]] = f
		}
		i = j
	}
	return used
}

func identStart(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// Parse parses one template with a fresh Set; see Set.Parse.
func Parse(name, text string, roots map[string][]string) (*Template, *Error) {
	return NewSet().Parse(name, text, roots)
}

// Parse parses text. roots names the data the template will be given: each
// key is a top-level field (`.args`); its value lists the names known below
// it, or is nil when anything may follow. A field outside these is an error.
func (s *Set) Parse(name, text string, roots map[string][]string) (*Template, *Error) {
	if !strings.Contains(text, "{{") && len(text) <= MaxOutput {
		return Literal(text), nil // no action: nothing to parse or check
	}
	key := parsedKey(text, roots)
	s.mu.Lock()
	done := s.parsed[key]
	s.mu.Unlock()
	if done != nil {
		return done, nil
	}
	t, err := parseText(text)
	if err != nil {
		return nil, parseError(name, text, err)
	}
	if t.Tree != nil && t.Tree.Root != nil {
		c := checker{roots: roots, text: text, tree: t.Tree}
		c.list(t.Tree.Root)
		if c.err != nil {
			return nil, c.err
		}
	}
	done = &Template{t: t, text: text}
	s.mu.Lock()
	s.parsed[key] = done
	s.mu.Unlock()
	return done, nil
}

// builtinNames are the names of text/template's builtin functions, for
// parse.Parse to know them. (Template.Parse builds a map of the functions
// themselves for every template it parses.)
var builtinNames = map[string]any{
	"and": true, "call": true, "html": true, "index": true, "slice": true, "js": true, "len": true,
	"not": true, "or": true, "print": true, "printf": true, "println": true, "urlquery": true,
	"eq": true, "ge": true, "gt": true, "le": true, "lt": true, "ne": true,
}

// parseText does what Template.Parse does for a new template named "t" (a
// name that keeps paths out of messages) with the functions text names and
// missingkey=error, without building the map of builtin functions again.
func parseText(text string) (*template.Template, error) {
	used := funcsIn(text)
	trees, err := parse.Parse("t", text, "", "", used, builtinNames)
	if err != nil {
		return nil, err
	}
	t := template.New("t").Option("missingkey=error").Funcs(used)
	for name, tree := range trees {
		if _, err := t.AddParseTree(name, tree); err != nil {
			return nil, err
		}
	}
	return t, nil
}

var lineRE = regexp.MustCompile(`^template: [^:]*:(\d+)(?::(\d+))?: (.*)$`)

var undefinedRE = regexp.MustCompile(`^function "([^"]+)" not defined$`)

// columnOf finds word on a line of text (1-based), for errors that give only
// a line; 0 when it is not there.
func columnOf(text string, line int, word string) int {
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return 0
	}
	return strings.Index(lines[line-1], word) + 1
}

func parseError(name, text string, err error) *Error {
	msg := err.Error()
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if fn := undefinedRE.FindStringSubmatch(m[3]); fn != nil && col == 0 {
			col = columnOf(text, line, fn[1])
		}
		return &Error{Line: line, Col: col, Msg: m[3]}
	}
	return &Error{Line: 1, Msg: strings.TrimPrefix(msg, "template: "+name+": ")}
}

// Execute renders the template with data.
func (t *Template) Execute(data any) (string, error) {
	if t.lit {
		return t.text, nil
	}
	var b limitedBuilder
	if err := t.t.Execute(&b, data); err != nil {
		var ee template.ExecError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("rendering template: %s", cleanExec(ee.Err.Error()))
		}
		return "", fmt.Errorf("rendering template: %s", cleanExec(err.Error()))
	}
	return b.String(), nil
}

// Constant reports whether the template has no actions: its output is its text.
func (t *Template) Constant() (string, bool) {
	if t.lit {
		return t.text, true
	}
	if t.t.Tree == nil || t.t.Tree.Root == nil {
		return "", true
	}
	for _, n := range t.t.Tree.Root.Nodes {
		if n.Type() != parse.NodeText {
			return "", false
		}
	}
	return t.text, true
}

var execPrefix = regexp.MustCompile(`^template: [^:]*:\d+:\d+: executing "[^"]*" at <([^>]*)>: `)

// fieldError is text/template's message for a field of a value that has
// none, such as .args.id.name when id is a number.
var fieldError = regexp.MustCompile(`^(\.[\w.]+)\.(\w+): can't evaluate field \w+ in type .*$`)

// goType matches the Go type names text/template puts in its messages.
var goType = regexp.MustCompile(`map\[string\]interface \{\}|\[\]interface \{\}|\binterface \{\}|` +
	`\b(?:float32|float64|u?int(?:8|16|32|64)?)\b|\bbool\b`)

// jsonTypes names Go types the way a config's author knows them, JSON's.
var jsonTypes = map[string]string{"map[string]interface {}": "object", "[]interface {}": "list",
	"interface {}": "value", "bool": "boolean"}

// cleanExec rewrites an execution error for the config's author: the
// action that failed, and no Go. A message the template wrote itself
// (fail) is left as it is.
func cleanExec(msg string) string {
	msg = execPrefix.ReplaceAllString(msg, "$1: ")
	if m := fieldError.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s.%s: %s has no field %q: it is not an object", m[1], m[2], m[1], m[2])
	}
	if strings.Contains(msg, "error calling fail:") {
		return msg
	}
	return goType.ReplaceAllStringFunc(msg, func(t string) string {
		if j, ok := jsonTypes[t]; ok {
			return j
		}
		return "number"
	})
}

type limitedBuilder struct{ strings.Builder }

var errTooLarge = fmt.Errorf("output larger than %d bytes", MaxOutput)

func (b *limitedBuilder) Write(p []byte) (int, error) {
	if b.Len()+len(p) > MaxOutput {
		return 0, errTooLarge
	}
	return b.Builder.Write(p)
}

// checker walks a parse tree, reporting fields outside the declared roots.
// It checks only where dot is the template's data: not inside range or with.
type checker struct {
	roots map[string][]string
	text  string
	tree  *parse.Tree
	err   *Error
}

func (c *checker) list(l *parse.ListNode) {
	walkData(l, func(f Field) {
		if n, ok := f.Node.(*parse.FieldNode); ok && c.err == nil {
			c.field(n, n.Ident)
		}
	})
}

func (c *checker) field(n parse.Node, ident []string) {
	if len(ident) == 0 {
		return
	}
	below, ok := c.roots[ident[0]]
	switch {
	case !ok:
		known := slices.Collect(maps.Keys(c.roots))
		c.fail(n, back(ident), fmt.Sprintf("unknown field .%s", ident[0]), suggest.DidYouMean(ident[0], known))
	case below != nil && len(ident) > 1 && !slices.Contains(below, ident[1]):
		c.fail(n, back(ident), fmt.Sprintf("unknown field .%s.%s", ident[0], ident[1]), suggest.DidYouMean(ident[1], below))
	}
}

// back is how far before a field node's position the field starts: the
// parser places a field of several identifiers at its second one.
func back(ident []string) int {
	if len(ident) > 1 {
		return len(ident[0]) + 1
	}
	return 0
}

func (c *checker) fail(n parse.Node, back int, msg, hint string) {
	line, col := 1, 0
	if pos := int(n.Position()) - back; pos >= 0 && pos <= len(c.text) {
		before := c.text[:pos]
		line = strings.Count(before, "\n") + 1
		col = pos - strings.LastIndex(before, "\n")
	}
	c.err = &Error{Line: line, Col: col, Msg: msg, Hint: hint}
}
