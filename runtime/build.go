package runtime

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/eval"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/internal/suggest"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
	"gopkg.in/yaml.v3"
)

// BuildOptions control how a config becomes a server.
type BuildOptions struct {
	// Registry holds the backend kinds handlers may use.
	Registry *handlers.Registry
	// Logger receives operator logs (stderr); discarded when nil.
	Logger *slog.Logger
}

// builder turns loaded files into a Server, collecting diagnostics.
type builder struct {
	opts     BuildOptions
	ds       Diagnostics
	srv      *Server
	backends map[string]*backendEntry
	seen     map[string]string // "tool:name" -> position of first definition
	redact   *redactor
	schemas  *schemaCompiler
	tmpls    *templates.Set
}

type backendEntry struct {
	kind   string
	value  any
	err    error
	broken bool // its configuration was reported as wrong
}

// Build compiles loaded files into a Server. Every problem is a diagnostic;
// the server is nil when there is an error. After a failed build, whatever
// was opened has been closed.
func Build(files []*File, opts BuildOptions) (*Server, Diagnostics) {
	if opts.Registry == nil {
		opts.Registry = handlers.NewRegistry()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := &builder{opts: opts, srv: newServer(opts.Logger), backends: map[string]*backendEntry{},
		seen: map[string]string{}, redact: &redactor{}, schemas: newSchemaCompiler(), tmpls: templates.NewSet()}
	var credentials []string
	for _, f := range files {
		b.redact.add(f.Secrets...)
		credentials = append(credentials, f.Credentials...)
	}
	b.srv.redact = b.redact
	b.srv.mask = newMasker(credentials)
	for _, f := range files {
		b.server(f)
		b.openBackends(f)
	}
	for _, f := range files {
		b.tools(f)
		b.resources(f)
		b.prompts(f)
	}
	ds := b.ds.Sort()
	if ds.Errors() > 0 {
		b.srv.Close()
		return nil, ds
	}
	b.srv.watch = newWatchSet(b.srv)
	return b.srv, ds
}

// Compile loads and builds in one step.
func Compile(paths []string, lo LoadOptions, bo BuildOptions) (*Server, Diagnostics) {
	files, ds := Load(paths, lo)
	srv, bds := Build(files, bo) // reports the rest of the problems too
	ds = append(ds, bds...).Sort()
	if ds.Errors() > 0 && srv != nil {
		srv.Close()
		srv = nil
	}
	return srv, ds
}

func (b *builder) server(f *File) {
	s := f.Config.Server
	info := &b.srv.info
	for _, kv := range []struct {
		dst *string
		v   string
	}{{&info.Name, s.Name}, {&info.Version, s.Version}, {&info.Title, s.Title}, {&info.Instructions, s.Instructions}} {
		if kv.v != "" {
			*kv.dst = kv.v
		}
	}
	if s.HTTP != nil {
		b.httpConfig(f, s.HTTP)
	}
}

// diags collects diagnostics about file f.
func (b *builder) diags(f *File) diags {
	return diags{file: f.Path, list: &b.ds, src: f.src}
}

// diag reports at path inside file f.
func (b *builder) diag(f *File, sev Severity, path, msg, hint string) {
	d := b.diags(f)
	d.add(sev, locate(f.Root, path), -1, path, msg, hint)
}

func (b *builder) errorf(f *File, path, format string, args ...any) {
	b.diag(f, Error, path, fmt.Sprintf(format, args...), "")
}

// given reports whether the last key of path is written in f. A required
// key that is not has been reported by the decoder; checks of its value
// would only repeat that.
func given(f *File, path string) bool {
	i := strings.LastIndexByte(path, '.')
	parent := locate(f.Root, path[:max(i, 0)])
	return keyNode(parent, path[i+1:]) != nil
}

// unique reports a name defined twice, naming both places.
func (b *builder) unique(f *File, what, name, path string) bool {
	key := what + ":" + name
	n := locate(f.Root, path)
	here := fmt.Sprintf("%s:%d:%d", f.Path, n.Line, n.Column)
	if first, dup := b.seen[key]; dup {
		b.diag(f, Error, path, fmt.Sprintf("%s %q is defined twice", what, name), "first defined at "+first)
		return false
	}
	b.seen[key] = here
	return true
}

// openBackends opens the shared backends of f.
func (b *builder) openBackends(f *File) {
	for _, name := range slices.Sorted(maps.Keys(f.Config.Backends)) {
		h := f.Config.Backends[name]
		path := "backends." + name
		if h == nil {
			b.errorf(f, path, "empty backend; give at least its kind")
			continue
		}
		if !b.unique(f, "backend", name, path) {
			continue
		}
		// A backend that fails is still known: the tools using it are not
		// reported again as naming an unknown backend.
		broken := &backendEntry{kind: h.Kind, broken: true}
		kind, ok := b.kind(f, path, h.Kind)
		if !ok {
			b.backends[name] = broken
			continue
		}
		if kind.NewBackend == nil {
			b.errorf(f, path+".kind", "kind %q has no shared backends; configure it on each tool", h.Kind)
			b.backends[name] = broken
			continue
		}
		cfg := kind.NewBackend()
		env := &buildEnv{b: b, f: f, path: path}
		if !b.decodeKind(f, path, h.Body, cfg) {
			b.backends[name] = broken
			continue
		}
		entry := &backendEntry{kind: h.Kind}
		entry.value = cfg.Open(env)
		if entry.value == nil {
			entry.err = fmt.Errorf("backend %q failed to build", name)
		}
		if c, ok := entry.value.(io.Closer); ok {
			b.srv.closers = append(b.srv.closers, c)
		}
		b.backends[name] = entry
		if entry.value != nil {
			b.srv.backends[name] = entry.value
		}
	}
}

func (b *builder) kind(f *File, path, name string) (handlers.Kind, bool) {
	k, ok := b.opts.Registry.Lookup(name)
	if !ok {
		hint := suggest.DidYouMean(name, b.opts.Registry.Names())
		if hint == "" {
			hint = "known kinds: " + strings.Join(b.opts.Registry.Names(), ", ")
		}
		b.diag(f, Error, path+".kind", fmt.Sprintf("unknown kind %q", name), hint)
	}
	return k, ok
}

// decodeKind decodes a handler's mapping (minus kind and backend) into cfg.
func (b *builder) decodeKind(f *File, path string, body *yaml.Node, cfg any) bool {
	before := len(b.ds)
	n := *body
	n.Content = nil
	for i := 0; i+1 < len(body.Content); i += 2 {
		if k := body.Content[i].Value; k == "kind" || k == "backend" {
			continue
		}
		n.Content = append(n.Content, body.Content[i], body.Content[i+1])
	}
	dc := &decoder{d: b.diags(f), raw: true, unset: f.unset}
	dc.decode(&n, reflect.ValueOf(cfg).Elem(), path)
	return len(b.ds) == before
}

// buildHandler decodes and builds the handler at path, typed by argsType;
// ann are the annotations of the tool it belongs to, if any; extra types
// the names the tool gives the handler beyond `args` (e.g. `steps`).
func (b *builder) buildHandler(f *File, path string, h *spec.Handler, args types.Type, ann *spec.Annotations, extra types.Map) handlers.Handler {
	kindName := h.Kind
	if h.Backend != "" {
		entry, ok := b.backends[h.Backend]
		switch {
		case !ok:
			b.diag(f, Error, path+".backend", fmt.Sprintf("unknown backend %q", h.Backend),
				suggest.DidYouMean(h.Backend, slices.Sorted(maps.Keys(b.backends))))
			return nil
		case entry.broken:
			return nil // its problems are reported where it is defined
		case kindName == "":
			kindName = entry.kind
		case kindName != entry.kind:
			b.errorf(f, path+".kind", "kind %q does not match backend %q, which is %s", kindName, h.Backend, entry.kind)
			return nil
		}
	}
	kind, ok := b.kind(f, path, kindName)
	if !ok {
		return nil
	}
	cfg := kind.NewConfig()
	if !b.decodeKind(f, path, h.Body, cfg) {
		return nil
	}
	env := &buildEnv{b: b, f: f, path: path, args: args, backend: h.Backend, annotations: ann, extra: extra}
	before := b.ds.Errors()
	hd := cfg.Build(env)
	if c, ok := hd.(io.Closer); ok {
		b.srv.closers = append(b.srv.closers, c)
	}
	if hd == nil && b.ds.Errors() == before {
		b.errorf(f, path, "handler failed to build")
	}
	return hd
}

// buildEnv is the handlers.BuildEnv of one handler.
type buildEnv struct {
	b       *builder
	f       *File
	path    string     // the handler's path, e.g. tools[2].handler
	args    types.Type // type of `args`
	extra   types.Map  // other names the tool provides, e.g. `steps`
	backend string
	// annotations of the tool being built; nil for a resource's handler
	annotations *spec.Annotations
}

// Annotations implements handlers.ToolAnnotations.
func (e *buildEnv) Annotations() *spec.Annotations { return e.annotations }

func (e *buildEnv) Logger() *slog.Logger { return e.b.opts.Logger }

func (e *buildEnv) Diag(field, msg string) {
	e.b.diag(e.f, Error, joinPath(e.path, field), msg, "")
}

func (e *buildEnv) Warn(field, msg string) {
	e.b.diag(e.f, Warning, joinPath(e.path, field), msg, "")
}

func (e *buildEnv) Compile(field string, v *spec.Value, vars types.Map) *eval.Value {
	if v.IsZero() {
		return eval.Const(nil)
	}
	return e.b.compile(e.f, joinPath(e.path, field), v.Node, e.env(vars))
}

func (e *buildEnv) env(vars types.Map) types.Map {
	env := types.Map{"args": e.args}
	if e.args == nil {
		env["args"] = types.Map{}
	}
	for k, t := range e.extra {
		env[k] = t
	}
	for k, t := range vars {
		env[k] = t
	}
	return env
}

func (e *buildEnv) Template(field, text string, vars ...string) *templates.Template {
	roots := map[string][]string{"args": argNames(e.args)}
	for k := range e.extra {
		roots[k] = nil
	}
	for _, v := range vars {
		roots[v] = nil
	}
	return e.b.template(e.f, joinPath(e.path, field), text, roots)
}

func (e *buildEnv) Backend(name string) (any, error) {
	if name == "" {
		name = e.backend
	}
	if name == "" {
		return nil, errors.New("no backend named")
	}
	entry, ok := e.b.backends[name]
	if !ok {
		return nil, fmt.Errorf("unknown backend %q", name)
	}
	return entry.value, entry.err
}

func (e *buildEnv) Path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.f.Dir, p)
}

func (e *buildEnv) Redact(s string) string { return e.b.redact.apply(s) }

// compile compiles a value at path, reporting errors inside its scalars.
func (b *builder) compile(f *File, path string, n *yaml.Node, env types.Map) *eval.Value {
	v, errs := eval.Compile(n, env)
	for _, e := range errs {
		d := b.diags(f)
		d.add(Error, e.Node, e.Offset, path, e.Msg, e.Hint)
	}
	if len(errs) > 0 {
		return nil
	}
	return v
}

// template parses text at path; errors point inside the scalar when it is
// on one line.
func (b *builder) template(f *File, path, text string, roots map[string][]string) *templates.Template {
	t, err := b.tmpls.Parse(path, text, roots)
	if err == nil {
		return t
	}
	n := locate(f.Root, path)
	d := b.diags(f)
	if line, col, ok := blockPosition(d, n, text, err); ok {
		b.ds = append(b.ds, Diagnostic{File: f.Path, Line: line, Col: col,
			Path: path, Message: err.Msg, Hint: err.Hint, Severity: Error})
		return nil
	}
	if err.Line == 1 && err.Col > 0 {
		d.add(Error, n, err.Col-1, path, err.Msg, err.Hint)
	} else {
		d.add(Error, n, -1, path, err.Msg, err.Hint)
	}
	return nil
}

// blockPosition places a template error inside a literal block scalar (|),
// whose text line k is line k after the indicator, less the block's
// indentation. It reports false when the source does not show that line.
func blockPosition(d diags, n *yaml.Node, text string, err *templates.Error) (int, int, bool) {
	lines := strings.Split(text, "\n")
	if n.Style != yaml.LiteralStyle || err.Line < 1 || err.Line > len(lines) {
		return 0, 0, false
	}
	src := string(d.line(n.Line + err.Line))
	tl := lines[err.Line-1]
	indent := len(src) - len(tl)
	if indent < 0 || src[indent:] != tl || strings.TrimLeft(src[:indent], " ") != "" {
		return 0, 0, false
	}
	col := indent + 1
	if err.Col > 0 {
		col += utf8.RuneCountInString(tl[:min(err.Col-1, len(tl))])
	}
	return n.Line + err.Line, col, true
}

func argNames(t types.Type) []string {
	m, ok := t.(types.Map)
	if !ok {
		return nil
	}
	if _, open := m[types.Extra]; open {
		return nil
	}
	names := []string{}
	for k := range m {
		names = append(names, k)
	}
	return names
}

// locate finds the node at a diagnostic path such as tools[1].handler.url,
// or the deepest node on the way there.
func locate(root *yaml.Node, path string) *yaml.Node {
	n := root
	for _, seg := range splitPath(path) {
		var next *yaml.Node
		if idx, err := strconv.Atoi(seg); err == nil && resolveAlias(n).Kind == yaml.SequenceNode {
			if s := resolveAlias(n); idx < len(s.Content) {
				next = resolveAlias(s.Content[idx])
			}
		} else {
			next = valueNode(n, seg)
			if next == nil {
				// a field inlined from another struct, or missing: stay
				continue
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return n
}

func splitPath(path string) []string {
	var segs []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				segs = append(segs, part)
				break
			}
			if i > 0 {
				segs = append(segs, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				break
			}
			segs = append(segs, part[i+1:i+j])
			part = part[i+j+1:]
		}
	}
	return segs
}
