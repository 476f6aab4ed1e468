package build

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/spill"
	"github.com/mcpgen/mcpgen/spec"
)

// validToolName reports whether MCP clients accept name as a tool name:
// 1 to 128 ASCII letters, digits, '_', '-' or '.'.
func validToolName(name string) bool {
	return len(name) <= 128 && nameOf(name, "_-.")
}

// portableName reports whether the strictest model APIs accept name as a
// function name: 1 to 64 ASCII letters, digits, '_' or '-'.
func portableName(name string) bool {
	return len(name) <= 64 && nameOf(name, "_-")
}

// nameOf reports whether name is non-empty and made of ASCII letters,
// digits and the bytes of punct. (A regexp with {1,128} would do, at the
// price of a program 128 states long built when the package loads.)
func nameOf(name, punct string) bool {
	for i := range len(name) {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(punct, c) >= 0) {
			return false
		}
	}
	return name != ""
}

func (b *builder) tools(f *load.File) {
	ahead := b.prepareAhead(f.Config.Tools)
	for _, tl := range entries(b, f, "tools", "empty tool", f.Config.Tools,
		func(i int, path string, t *spec.Tool) *plan.Tool {
			b.toolAt[t.Name] = toolPlace{f, path, t}
			return b.tool(f, path, t, ahead[i])
		}) {
		b.plan.Tools = append(b.plan.Tools, tl)
		b.plan.ToolIndex[tl.Def.Name] = tl
	}
}

// generated is a tool's input schema generated from its args.
type generated struct {
	s   *input.Schema
	err error
}

// prepareAhead generates and decodes the input schemas of the tools, in
// order, on another goroutine: building one tool (templates, expressions,
// handler) overlaps preparing the next one's schema. Entry i receives tool
// i's schema, or nothing useful for a tool that gives input_schema or has an
// empty argument, where inputSchema returns before it reads. It only reads
// the tools.
func (b *builder) prepareAhead(tools []*spec.Tool) []chan generated {
	out := make([]chan generated, len(tools))
	for i := range out {
		out[i] = make(chan generated, 1) // never blocks the goroutine
	}
	go func() {
		for i, t := range tools {
			var g generated
			if t != nil && t.InputSchema == nil && !slices.Contains(t.Args, nil) {
				g.s, g.err = b.schemas.CompileArgs(t.Name+"/input", unbound(t.Args))
			}
			out[i] <- g
		}
	}()
	return out
}

func (b *builder) tool(f *load.File, path string, t *spec.Tool, ahead <-chan generated) *plan.Tool {
	before := b.ds.Errors()
	if b.named(f, path, "tool", t.Name) && !portableName(t.Name) {
		b.diag(f, load.Warning, path+".name", fmt.Sprintf("tool name %q is valid MCP, but some clients reject it", t.Name),
			"the most widely accepted names are up to 64 letters, digits, '_' and '-'")
	}
	var hd *decoded
	if t.Handler != nil {
		hd = b.decodeHandler(f, path+".handler", t.Handler)
	}
	in := b.handlerSchema(f, path, t, hd)
	if in == nil {
		in = b.inputSchema(f, path, t, ahead)
	}
	in = b.extendInput(f, path, t, hd, in)
	b.checkDefaults(f, path, t, in)
	var argsType types.Type
	if in != nil {
		argsType = eval.TypeOf(in.Doc())
	} else {
		// Without a schema, anything goes: one mistake is reported once.
		argsType = types.Map{types.Extra: types.Any}
	}
	b.usesAuth = false
	tl := &plan.Tool{IsError: t.Error, Bound: b.boundArgs(f, path, t, argsType), Scopes: t.Scopes, CacheCfg: t.CacheHint}
	tl.Args = input.NewArgs(in, boundNames(tl.Bound))
	tl.Limit = b.toolLimit(f, path, t)
	tl.MaxResult = b.maxResult(f, path, t)
	if tl.Pages = t.Overflow == "pages"; tl.Pages && b.plan.Spill == nil {
		b.plan.Spill = spill.NewStore()
	}
	b.scopeList(f, path+".scopes", t.Scopes)
	if t.OutputSchema != nil {
		tl.Out = b.schemaAt(f, path+".output_schema", t.Name+"/output", t.OutputSchema)
		if t.Handler == nil {
			b.errorf(f, path+".output_schema", "output_schema is for tools with a handler: content alone has no structured result")
		}
	}
	roots := map[string][]string{"args": argNames(argsType)}
	b.argsType = argsType
	tl.Steps = b.steps(f, path, t, roots)
	b.statelessSteps(f, path, t.Confirm, t.Steps)
	for i, c := range t.Requires {
		if c != plan.CapSampling && c != plan.CapElicitation && c != plan.CapRoots {
			b.errorf(f, fmt.Sprintf("%s.requires[%d]", path, i), "expected one of sampling, elicitation, roots, got %q", c)
		}
	}
	tl.Requires = requiredCapabilities(t.Requires, tl.Steps)
	tl.Interactive = slices.ContainsFunc(tl.Steps, func(st *plan.Step) bool { return st.Capability() != "" })
	if in != nil && bytes.Contains(in.Raw(), []byte(`"x-mcp-header"`)) { // rare: skip the walk
		tl.Headers = b.paramHeaders(f, path, t, in.Doc())
	}
	switch {
	case t.Handler != nil:
		extra := types.Map{plan.AuthName: b.identity.Type}
		maps.Copy(extra, stepsType(roots["steps"]))
		if hd != nil {
			hd.env.args, hd.env.annotations, hd.env.extra = argsType, t.Annotations, extra
			if in != nil {
				hd.env.input = in.Doc()
			}
			tl.Handler = b.finishHandler(hd)
		}
		tl.Backend = cmp.Or(t.Handler.Backend, t.Handler.Kind)
		roots["result"] = nil
		if t.Error {
			b.errorf(f, path+".error", "`error` is for tools without a handler; a handler's failures are errors already")
		}
	case len(t.Content) == 0:
		b.errorf(f, path, "a tool needs a handler or content")
	}
	tl.Content = b.blocks(f, path+".content", t.Content, roots)
	tl.NeedsCaller = b.usesAuth
	icons := b.icons(f, path+".icons", t.Icons)
	app := b.toolApp(f, path, t.App)
	// without an input schema, the arguments were reported when the file
	// loaded (an unknown type); the tool cannot be served either way
	if b.ds.Errors() > before || in == nil {
		return nil
	}
	tl.Def = &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: in.Raw(), Annotations: annotations(t), Icons: icons, Meta: app}
	if rs, ok := tl.Handler.(handlers.ResultShaper); ok && tl.Out != nil && !b.opts.LazySchemas {
		b.checkOutput(f, path+".output_schema", rs.ResultShape(), tl.Out.Doc())
	}
	if h, ok := tl.Handler.(handlers.Hinter); ok {
		tl.Def.Annotations = b.hint(f, path+".annotations", t.Annotations, tl.Def.Annotations, h.Hints())
	}
	if tl.Out != nil {
		tl.Def.OutputSchema = tl.Out.Raw()
	}
	tl.Tags, tl.Always = t.Tags, t.Always
	tl.Slots = b.concurrency(f, path+".concurrency", t.Concurrency)
	tl.Cache = b.toolCache(f, path+".cache", t, tl)
	taskSupport(tl, t.Task)
	tl.TaskAfter = b.taskAfter(f, path, t, tl.Steps)
	return tl
}

// handlerSchema returns the input schema the handler makes for a tool that
// declares neither args nor input_schema (a GraphQL operation's variables),
// or nil.
func (b *builder) handlerSchema(f *load.File, path string, t *spec.Tool, d *decoded) *input.Schema {
	if d == nil || d.env.partial || t.Args != nil || t.InputSchema != nil {
		return nil
	}
	is, ok := d.cfg.(handlers.InputSchemer)
	if !ok {
		return nil
	}
	doc := is.InputSchema(d.env)
	if doc == nil {
		return nil // the handler reports why when it builds
	}
	raw, err := json.Marshal(doc)
	if err == nil {
		var s *input.Schema
		if s, err = b.schemas.Compile(t.Name+"/input", raw); err == nil {
			return s
		}
	}
	b.errorf(f, path+".handler", "the input schema made by the handler is invalid: %v", err)
	return nil
}

// inputSchema checks the tool's arguments and returns its input schema:
// the one it gives, or the one generated from its args, received from ahead.
func (b *builder) inputSchema(f *load.File, path string, t *spec.Tool, ahead <-chan generated) *input.Schema {
	switch {
	case t.InputSchema != nil && t.Args != nil:
		return nil // reported when the file loaded
	case t.InputSchema != nil:
		return b.schemaAt(f, path+".input_schema", t.Name+"/input", t.InputSchema)
	}
	seen := map[string]bool{}
	for i, a := range t.Args {
		p := load.IndexPath(path+".args", i)
		if a == nil {
			b.errorf(f, p, "empty argument; give at least its name")
			return nil
		}
		if seen[a.Name] {
			b.errorf(f, p+".name", "argument %q is declared twice", a.Name)
		}
		seen[a.Name] = true
		if a.Items != "" && a.Type != "array" {
			b.errorf(f, p+".items", "items is for arguments of type array")
		}
		if !slices.Contains(argTypes, a.Type) || !slices.Contains(argTypes, a.Items) {
			return nil // reported when the file loaded
		}
		if a.Pattern != "" {
			if _, err := regexp.Compile(a.Pattern); err != nil {
				b.errorf(f, p+".pattern", "invalid regular expression: %v", err)
				return nil
			}
		}
		// the schema is compiled on first use: whatever would fail then
		// must be caught here
		if !b.lengths(f, p, a) {
			return nil
		}
	}
	// The schema is generated, so it compiles; only its first call pays.
	g := <-ahead
	if g.err != nil {
		b.errorf(f, path+".args", "%v", g.err)
		return nil
	}
	return g.s
}

func (b *builder) schemaAt(f *load.File, path, name string, v *spec.Value) *input.Schema {
	raw, err := load.JSON(v.Node)
	if err == nil {
		// only $schema matters to the dialect: decoding the whole schema
		// is left to the compiler (and, serving, to the schema's first use)
		if load.Field(v.Node, "$schema") != nil {
			if doc, _ := input.DecodeJSON(raw); doc != nil {
				if m, ok := doc.(map[string]any); ok && !b.checkDialect(f, path, v, m) {
					return nil
				}
			}
		}
		var s *input.Schema
		if s, err = b.schemas.Compile(name, raw); err == nil {
			return s
		}
	}
	var es input.Errors
	if !errors.As(err, &es) {
		b.errorf(f, path, "invalid JSON Schema: %v", err)
		return nil
	}
	d := b.reporter(f)
	for _, e := range es {
		n, p := input.NodeAt(v.Node, path, e.Loc)
		d.At(n, p, "invalid JSON Schema: "+e.Msg, "")
	}
	return nil
}

func annotations(t *spec.Tool) *mcp.ToolAnnotations {
	a := t.Annotations
	if a == nil {
		return nil
	}
	out := &mcp.ToolAnnotations{Title: a.Title, DestructiveHint: a.Destructive, OpenWorldHint: a.OpenWorld}
	if a.ReadOnly != nil {
		out.ReadOnlyHint = *a.ReadOnly
	}
	if a.Idempotent != nil {
		out.IdempotentHint = *a.Idempotent
	}
	return out
}

// lengths reports negative min_length and max_length, which would leave the
// generated schema uncompilable.
func (b *builder) lengths(f *load.File, path string, a *spec.Arg) bool {
	ok := true
	for _, l := range [...]struct {
		key string
		n   *int
	}{{"min_length", a.MinLength}, {"max_length", a.MaxLength}} {
		if key, n := l.key, l.n; n != nil && *n < 0 {
			b.errorf(f, path+"."+key, "%s must not be negative, got %d", key, *n)
			ok = false
		}
	}
	return ok
}

// argTypes are the types of the concise argument form ("" is string).
var argTypes = []string{"", "string", "integer", "number", "boolean", "array", "object"}

// hint completes a tool's annotations with what its handler knows, warning
// where the config's annotations contradict it.
func (b *builder) hint(f *load.File, path string, given *spec.Annotations, a *mcp.ToolAnnotations, h handlers.Hints) *mcp.ToolAnnotations {
	if a == nil {
		a = &mcp.ToolAnnotations{}
		given = &spec.Annotations{}
	}
	if h.ReadOnly != nil {
		switch {
		case given.ReadOnly == nil:
			a.ReadOnlyHint = *h.ReadOnly
		case *given.ReadOnly != *h.ReadOnly:
			b.diag(f, load.Warning, path+".read_only", fmt.Sprintf("read_only: %v contradicts the handler, which %s", *given.ReadOnly,
				map[bool]string{true: "only reads", false: "writes"}[*h.ReadOnly]), "")
		}
	}
	if h.Destructive != nil {
		switch {
		case given.Destructive == nil:
			a.DestructiveHint = h.Destructive
		case *given.Destructive != *h.Destructive:
			b.diag(f, load.Warning, path+".destructive", fmt.Sprintf("destructive: %v contradicts the handler, which %s", *given.Destructive,
				map[bool]string{true: "may change or delete data", false: "does not destroy data"}[*h.Destructive]), "")
		}
	}
	return a
}

// checkOutput reports the ways a result of shape s can never match the
// tool's output schema (at path): every call would fail.
func (b *builder) checkOutput(f *load.File, path string, s *eval.Shape, schema any) {
	for _, m := range s.Mismatches(schema) {
		d := b.reporter(f)
		p := path + m.Path
		for !f.Written(p) && p != path {
			p = p[:max(strings.LastIndexAny(p, ".["), len(path))]
		}
		d.At(f.Node(p), p, m.Msg, m.Hint)
	}
}

// DefaultMaxResult caps the text of a tool's result when the config sets
// no cap: more than any model reads usefully in one answer.
const DefaultMaxResult = 1 << 20

// maxResult settles the cap of a tool's results: its own, else the
// server's, else DefaultMaxResult.
func (b *builder) maxResult(f *load.File, path string, t *spec.Tool) int {
	b.checkMaxResult(f, path+".max_result", t.MaxResult)
	return int(cmp.Or(t.MaxResult, b.serverMaxResult, DefaultMaxResult))
}

// checkMaxResult reports a max_result (at path) too small for the note.
func (b *builder) checkMaxResult(f *load.File, path string, v spec.Size) {
	if v > 0 && v < minResult {
		b.errorf(f, path, "max_result must be at least %d bytes, to leave room for the note", minResult)
	}
}

// minResult is the smallest max_result: room for some of the result and
// the note saying it was cut.
const minResult = 256

// checkDefaults reports argument defaults the tool's input schema rejects.
// A default is handed to the handler as if the model had passed it, after
// the arguments were validated, so it must be valid itself.
func (b *builder) checkDefaults(f *load.File, path string, t *spec.Tool, in *input.Schema) {
	if in == nil {
		return
	}
	if t.InputSchema == nil {
		// the concise form's schema is compiled on first use: check its
		// defaults against the argument's own constraints instead
		for i, a := range t.Args {
			if msg := input.ArgDefaultProblem(a); msg != "" {
				b.errorf(f, fmt.Sprintf("%s.args[%d].default", path, i), "the default is not a valid value: %s", msg)
			}
		}
		return
	}
	if b.opts.LazySchemas {
		return // checking them compiles the schema; validate does
	}
	for _, p := range in.DefaultProblems() {
		b.errorf(f, path+".input_schema.properties."+p.Name+".default", "the default is not a valid value: %s", p.Msg)
	}
}
