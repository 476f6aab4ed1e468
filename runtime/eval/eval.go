// Package eval compiles the values of an mcpgen config whose strings may hold
// ${{ expressions }} (expr-lang), type-checked when the config loads against
// the names a call will provide, and evaluates them per call.
//
// A string that is exactly one ${{ … }} yields the expression's typed value;
// a ${{ … }} inside longer text is interpolated as text; any other string, and
// every other scalar, is a literal. Lists and mappings are evaluated element
// by element, so a JSON body built from expressions keeps real numbers,
// booleans, lists and objects.
package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"gopkg.in/yaml.v3"
)

// Open and Close delimit an expression inside a string.
const (
	Open  = "${{"
	Close = "}}"
)

// Error is a compile error at a position inside a node.
type Error struct {
	Node   *yaml.Node // the scalar holding the expression
	Offset int        // byte offset of the problem in the scalar's value
	Msg    string
	Hint   string
}

func (e Error) Error() string { return e.Msg }

// Value is a compiled value, ready to evaluate.
type Value struct {
	lit   any         // a constant (when prog, parts, list and keys are all empty)
	prog  *vm.Program // the whole string is one expression
	path  []string    // the names prog only looks up, if it does (fetchPath)
	parts []part      // text with interpolated expressions
	list  []*Value    // a sequence
	keys  []string    // a mapping's keys, in order
	vals  []*Value    // a mapping's values
	kind  yaml.Kind   // the node kind this came from
	src   string      // expression source, for errors
	node  *yaml.Node  // where it was written
}

type part struct {
	text string
	prog *vm.Program
	path []string // as Value.path
	src  string
}

// Const returns a Value that always yields x.
func Const(x any) *Value { return &Value{lit: x, kind: yaml.ScalarNode} }

// Compile compiles n against env, the names (and their types) that Eval will
// be given, and what opts allows besides. It returns every error found.
func Compile(n *yaml.Node, env types.Map, opts Options) (*Value, []Error) {
	c := compiler{env: env, opts: opts}
	v := c.value(n)
	return v, c.errs
}

type compiler struct {
	env  types.Map
	opts Options
	errs []Error
}

func (c *compiler) value(n *yaml.Node) *Value {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	v := &Value{kind: n.Kind, node: n}
	switch n.Kind {
	case yaml.SequenceNode:
		v.list = make([]*Value, len(n.Content))
		for i, e := range n.Content {
			v.list[i] = c.value(e)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			v.keys = append(v.keys, n.Content[i].Value)
			v.vals = append(v.vals, c.value(n.Content[i+1]))
		}
	case yaml.ScalarNode:
		c.scalar(n, v)
	}
	return v
}

func (c *compiler) scalar(n *yaml.Node, v *Value) {
	if n.Tag != "!!str" || !strings.Contains(n.Value, Open) {
		v.lit = literal(n)
		return
	}
	s := n.Value
	trimmed := strings.TrimSpace(s)
	if strings.HasPrefix(trimmed, Open) && strings.Index(trimmed, Close) == len(trimmed)-len(Close) &&
		strings.Count(trimmed, Open) == 1 {
		start := strings.Index(s, Open) + len(Open)
		src := trimmed[len(Open) : len(trimmed)-len(Close)]
		v.prog, v.src = c.compile(n, start, src), src
		v.path = fetchPath(v.prog)
		return
	}
	for off := 0; off < len(s); {
		i := strings.Index(s[off:], Open)
		if i < 0 {
			v.parts = append(v.parts, part{text: s[off:]})
			break
		}
		i += off
		if i > 0 && s[i-1] == '$' { // $${{ is a literal ${{
			v.parts = append(v.parts, part{text: s[off:i-1] + Open})
			off = i + len(Open)
			continue
		}
		if i > off {
			v.parts = append(v.parts, part{text: s[off:i]})
		}
		j := strings.Index(s[i:], Close)
		if j < 0 {
			c.errs = append(c.errs, Error{Node: n, Offset: i, Msg: "unterminated ${{: expected }}"})
			return
		}
		src := s[i+len(Open) : i+j]
		prog := c.compile(n, i+len(Open), src)
		v.parts = append(v.parts, part{prog: prog, path: fetchPath(prog), src: src})
		off = i + j + len(Close)
	}
}

// compile compiles one expression found at byte offset start of n's value.
func (c *compiler) compile(n *yaml.Node, start int, src string) *vm.Program {
	if strings.TrimSpace(src) == "" {
		c.errs = append(c.errs, Error{Node: n, Offset: start, Msg: "empty expression"})
		return nil
	}
	if i := envInExpression(src); i >= 0 {
		c.errs = append(c.errs, Error{Node: n, Offset: start + i,
			Msg:  "${...} is not expanded inside ${{ }}: the expression would see it as written",
			Hint: "read the variable in the expression as env.NAME"})
		return nil
	}
	var reader *envReader
	var p *vm.Program
	var err error
	// only an expression that mentions env can read it: the others skip the
	// patch pass, and the options stay off the heap (startup compiles every
	// expression of the config)
	if _, taken := c.env[EnvName]; c.opts.Env != nil && !taken && strings.Contains(src, EnvName) {
		reader = &envReader{lookup: c.opts.Env, bare: map[*ast.IdentifierNode]bool{}}
		p, err = expr.Compile(src, append([]expr.Option{expr.Env(c.env), expr.Optimize(true), expr.Patch(reader)}, functions...)...)
	} else {
		p, err = compileShared(src, c.env)
	}
	if reader != nil {
		if errs := reader.done(); len(errs) > 0 {
			for _, e := range errs {
				c.errs = append(c.errs, Error{Node: n, Offset: start + byteOffset(src, e.from), Msg: e.msg, Hint: e.hint})
			}
			return nil
		}
	}
	if err == nil {
		return p
	}
	e := Error{Node: n, Offset: start, Msg: "expr: " + err.Error()}
	var fe *file.Error
	if errors.As(err, &fe) {
		e.Offset = start + byteOffset(src, fe.From)
		e.Msg = "expr: " + fe.Message
		e.Hint = c.hint(fe.Message)
	}
	c.errs = append(c.errs, e)
	return nil
}

// byteOffset converts a rune offset in src, as expr reports positions,
// to a byte offset.
func byteOffset(src string, runes int) int {
	r := []rune(src)
	return len(string(r[:min(max(runes, 0), len(r))]))
}

// hint suggests a known name for "unknown name x" and "unknown field x".
func (c *compiler) hint(msg string) string {
	if name, ok := strings.CutPrefix(msg, "unknown name "); ok {
		return suggest.DidYouMean(name, keys(c.env))
	}
	if name, ok := strings.CutPrefix(msg, "unknown field "); ok {
		var known []string
		for _, t := range c.env {
			if m, ok := t.(types.Map); ok {
				known = append(known, keys(m)...)
			}
		}
		return suggest.DidYouMean(name, known)
	}
	return ""
}

func keys(m types.Map) []string {
	var ks []string
	for k := range m {
		if k != types.Extra {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// literal types a scalar as YAML does.
func literal(n *yaml.Node) any {
	var x any
	if err := n.Decode(&x); err != nil {
		return n.Value
	}
	if i, ok := x.(int); ok {
		return int64(i)
	}
	return x
}

// IsConst reports whether v yields the same value on every call.
func (v *Value) IsConst() bool {
	if v.prog != nil || v.parts != nil {
		return false
	}
	for _, e := range append(v.list, v.vals...) {
		if !e.IsConst() {
			return false
		}
	}
	return true
}

// Eval evaluates v with the names in vars. In a mapping, a key whose value
// is an expression yielding nil is left out, so optional arguments that were
// not passed do not appear.
func (v *Value) Eval(vars map[string]any) (any, error) {
	switch {
	case v.prog != nil:
		return run(v.prog, v.path, v.src, vars)
	case v.parts != nil:
		return v.interpolate(vars, nil)
	case v.kind == yaml.SequenceNode:
		out := make([]any, len(v.list))
		for i, e := range v.list {
			x, err := e.Eval(vars)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case v.kind == yaml.MappingNode:
		out := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			x, err := v.vals[i].Eval(vars)
			if err != nil {
				return nil, err
			}
			if x == nil && v.vals[i].prog != nil {
				continue
			}
			out[k] = x
		}
		return out, nil
	}
	return v.lit, nil
}

// String evaluates v to text. Interpolated expressions are passed through
// escape (nil for none) before they are spliced into the literal text; a
// value that is one expression is escaped as a whole.
func (v *Value) String(vars map[string]any, escape func(string) string) (string, error) {
	if v.parts != nil {
		return v.interpolate(vars, escape)
	}
	x, err := v.Eval(vars)
	if err != nil {
		return "", err
	}
	s := Format(x)
	if escape != nil && v.prog != nil {
		s = escape(s)
	}
	return s, nil
}

func (v *Value) interpolate(vars map[string]any, escape func(string) string) (string, error) {
	var b strings.Builder
	for _, p := range v.parts {
		if p.prog == nil {
			b.WriteString(p.text)
			continue
		}
		x, err := run(p.prog, p.path, p.src, vars)
		if err != nil {
			return "", err
		}
		s := Format(x)
		if escape != nil {
			s = escape(s)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

func run(p *vm.Program, path []string, src string, vars map[string]any) (any, error) {
	if x, ok := fetch(vars, path); ok {
		return x, nil
	}
	x, err := expr.Run(p, vars)
	if err != nil {
		var fe *file.Error
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("evaluating ${{ %s }}: %s", strings.TrimSpace(src), fe.Message)
		}
		return nil, fmt.Errorf("evaluating ${{ %s }}: %w", strings.TrimSpace(src), err)
	}
	return x, nil
}

// Format renders a value as text: strings as they are, whole numbers
// without a decimal point, nil as the empty string, lists and maps as JSON.
func Format(x any) string {
	switch x := x.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		return x.String()
	case fmt.Stringer:
		return x.String()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return string(b)
}
