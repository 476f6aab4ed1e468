// Package build turns a loaded mcpgen config (package runtime/load) into a
// plan.Plan: the tools, prompts and resources ready to serve.
//
// Build compiles schemas, expressions (runtime/eval) and templates and asks
// each backend kind (package handlers) to build its handlers; every problem
// is a Diagnostic with a position in the user's own file. Package runtime
// serves the plan.
package build

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/bulkhead"
	"github.com/mcpgen/mcpgen/runtime/cache"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/identity"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/limits"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/loglevel"
	"github.com/mcpgen/mcpgen/runtime/mask"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/runtime/watch"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
	"github.com/mcpgen/mcpgen/templates"
	"gopkg.in/yaml.v3"
)

// Options control how a config becomes a server.
type Options struct {
	// Registry holds the backend kinds handlers may use.
	Registry *handlers.Registry
	// Stateless says the server will be served without sessions whatever
	// the config says (serve --stateless): the build then warns about what
	// cannot work without one, as it does for server.http.stateless.
	Stateless bool
	// Logger receives operator logs (stderr); discarded when nil.
	Logger *slog.Logger
	// WatchInterval is how often the files of resources that clients
	// subscribed to are checked for changes; one second when zero.
	WatchInterval time.Duration
	// RateLimiter holds the buckets of tools' rate limits; nil keeps them
	// in memory (ratelimit.NewMemory), right for one replica.
	RateLimiter ratelimit.Limiter
	// TaskStore keeps the tasks of tools that run as tasks; nil keeps them
	// in memory (task.NewMemory), right for one replica.
	TaskStore task.Store
	// Referenced, when set, is called with every path a config refers to
	// (scripts, schemas, certificates, resource roots, databases),
	// resolved against the directory of the file that names it; it need
	// not exist. `mcpgen pack` bundles them.
	Referenced func(path string)
	// SecretFiles, when set, is called with every file holding secrets a
	// config read (its env_file, the files of ${file:PATH}): reload
	// watches them, and they are never bundled.
	SecretFiles func(path string)
	// Observer receives metrics and traces of the calls; nil for none.
	Observer *observe.Observer
	// Cache keeps the results of tools that declare `cache`; nil keeps them
	// in memory (cache.NewMemory, sized by server.cache.max_bytes).
	Cache cache.Store
	// Previous is the plan of the server a reload replaces: the shared
	// backends whose settings did not change are taken from it, open,
	// rather than opened again (Live.Swap hands them over).
	Previous *plan.Plan
	// Slots holds the concurrency limits of tools and backends; nil keeps
	// them in memory (bulkhead.NewMemory), right for one replica.
	Slots bulkhead.Slots
	// LazySchemas compiles the JSON Schemas a config gives verbatim
	// (input_schema, output_schema) when they are first used rather than
	// while building: a server of a thousand imported operations answers
	// initialize without compiling a thousand schemas first. What would fail
	// then fails the call instead; `validate` builds without it and reports
	// every error, and Plan.CheckSchemas reports them afterwards.
	LazySchemas bool
	// CountTokens counts the tokens of what clients list (Plan.Costs) even
	// when the config sets no server.budget (validate --costs).
	CountTokens bool
	// ToolSearch serves the search tools instead of the full list, as
	// server.tool_search does (serve --tool-search).
	ToolSearch bool
	// NoToolSearch serves the full list even when server.tool_search is
	// on (the dev page's switch, turned off); it wins over ToolSearch.
	NoToolSearch bool
	// Lint runs the description lint (lint.Rules) over the tools (validate).
	Lint bool
}

// builder turns loaded files into a Plan, collecting diagnostics.
type builder struct {
	opts     Options
	ds       load.Diagnostics
	plan     *plan.Plan
	backends map[string]*backendEntry
	seen     map[string]place // "tool:name" -> position of first definition
	redact   *mask.Redactor
	schemas  *input.Compiler
	tmpls    *templates.Set
	identity *identity.Identity // what callers authenticate with; shared with the server
	appRefs  []appRef           // tools' references to their apps, checked at the end
	offers   []offer            // tools offered to the client's model, checked at the end
	usesAuth bool               // the tool being built reads `auth`
	argsType types.Type         // type of `args` of the tool being built, for its steps' handlers
	// cacheBytes bounds the in-memory result cache (server.cache.max_bytes)
	cacheBytes int64
	// statelessAsks: a stateless server has steps that ask the client
	statelessAsks bool
	stateKeySet   bool // server.request_state.key is set
	// serverMaxResult is server.max_result, the tools' default cap
	serverMaxResult spec.Size
	redis           *spec.RedisState     // server.state.redis, once checked
	toolAt          map[string]toolPlace // where each tool is written
	budget          *budgetAt            // server.budget, once checked
	lintLevels      map[string]string    // server.lint
}

type backendEntry struct {
	kind   string
	value  any
	err    error
	broken bool // its configuration was reported as wrong
}

// Build compiles loaded files into a Plan. Every problem is a diagnostic;
// the plan is nil when there is an error. After a failed build, whatever
// was opened has been closed.
func Build(files []*load.File, opts Options) (*plan.Plan, load.Diagnostics) {
	if opts.Registry == nil {
		opts.Registry = handlers.NewRegistry()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	b := &builder{opts: opts, plan: newPlan(opts.Logger), backends: map[string]*backendEntry{},
		seen: map[string]place{}, schemas: input.NewCompiler(), tmpls: templates.NewSet(),
		toolAt: map[string]toolPlace{}}
	b.schemas.Lazy = opts.LazySchemas
	b.plan.ToolSearch = opts.ToolSearch
	b.plan.Schemas = b.schemas
	b.redact = mask.NewRedactor(mergeSecrets(files).Credentials())
	b.plan.Redact = b.redact
	if opts.RateLimiter != nil {
		b.plan.Limits.Rates = opts.RateLimiter
	}
	b.plan.Limits.Results = opts.Cache
	if opts.Slots != nil {
		b.plan.Limits.Slots = opts.Slots
	}
	if opts.Observer != nil {
		b.plan.Obs = opts.Observer
	}
	b.identity = b.plan.Identity
	for _, f := range files {
		b.configFiles(f)
		if b.oneServer(f) {
			b.server(f)
		}
		b.openBackends(f)
	}
	for _, f := range files {
		b.tools(f)
		b.resources(f)
		b.prompts(f)
	}
	b.skills(files)
	b.checkAppRefs()
	b.checkOffers()
	b.statelessKey(files)
	b.expose(files)
	b.costs()
	b.lint()
	if opts.NoToolSearch {
		b.plan.ToolSearch = false
	}
	// expressions' env.NAME added values to the files' secrets
	secrets := mergeSecrets(files)
	*b.redact = *mask.NewRedactor(secrets.Credentials())
	b.plan.Mask = mask.NewMasker(secrets.Credentials())
	ds := b.ds.Sort()
	if ds.Errors() > 0 {
		b.plan.Close()
		return nil, ds
	}
	b.plan.Obs.Metrics.Known(b.metricNames())
	b.plan.Finish()
	b.shareState()
	b.startTasks(b.opts.TaskStore)
	b.plan.Watch = watch.NewSet(watchFiles(b.plan))
	b.plan.WatchEvery = cmp.Or(opts.WatchInterval, watch.Interval)
	return b.plan, ds
}

func mergeSecrets(files []*load.File) *load.Secrets {
	var s load.Secrets
	for _, f := range files {
		s.Merge(&f.Secrets)
	}
	return &s
}

// Compile loads and builds in one step.
func Compile(paths []string, lo load.Options, bo Options) (*plan.Plan, load.Diagnostics) {
	files, ds := load.Files(paths, lo)
	p, bds := Build(files, bo) // reports the rest of the problems too
	ds = append(ds, bds...).Sort()
	if ds.Errors() > 0 && p != nil {
		p.Close()
		p = nil
	}
	return p, ds
}

// oneServer reports whether f's server block, if it has one, is the first.
// A later file's server block adds its instructions to the first's (so
// configs written to be served alone can be served together without one
// dropping what another tells the model); its name, version, title,
// description, website and icons are not used (the first file's describe
// the server); any other setting there is an error naming both places,
// since two files cannot both decide how the server runs.
func (b *builder) oneServer(f *load.File) bool {
	n := load.Field(f.Root, "server")
	if n == nil {
		return true
	}
	first, dup := b.seen["server"]
	if !dup {
		b.seen["server"] = placeOf(f, n)
		return true
	}
	if text := f.Config.Server.Instructions; text != "" {
		if b.plan.Info.Instructions != "" {
			text = b.plan.Info.Instructions + "\n\n" + text
		}
		b.plan.Info.Instructions = text
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch key := n.Content[i].Value; key {
		case "name", "version", "title", "description", "website_url", "icons", "instructions":
		default:
			b.diag(f, load.Error, "server."+key, "server settings are set in more than one file",
				"set "+key+" in the file whose server block comes first, at "+first.String()+"; a later file's server block may only add instructions")
		}
	}
	return false
}

func (b *builder) server(f *load.File) {
	s := f.Config.Server
	info := &b.plan.Info
	for _, kv := range []struct {
		dst *string
		v   string
	}{{&info.Name, s.Name}, {&info.Version, s.Version}, {&info.Title, s.Title}, {&info.Instructions, s.Instructions},
		{&info.Description, s.Description}, {&info.WebsiteURL, b.websiteURL(f, s.WebsiteURL)}} {
		if kv.v != "" {
			*kv.dst = kv.v
		}
	}
	if icons := b.icons(f, "server.icons", s.Icons); len(icons) > 0 {
		info.Icons = icons
	}
	if s.HTTP != nil {
		b.httpConfig(f, s.HTTP)
		if s.HTTP.Auth != nil {
			b.claimsConfig(f, s.HTTP.Auth)
		}
	}
	b.taskOptions(f, s.Tasks)
	b.serverMaxResult = s.MaxResult
	b.checkBudget(f, s.Budget)
	b.checkLint(f, s.Lint)
	if s.ToolSearch != nil && s.ToolSearch.Enabled {
		b.plan.ToolSearch = true
	}
	b.checkMaxResult(f, "server.max_result", s.MaxResult)
	if s.RateLimit != nil {
		b.plan.Limits.Fallback = b.rateLimit(f, "server.rate_limit", s.RateLimit)
	}
	b.plan.Stdio = s.Stdio
	b.cacheConfig(f, s.Cache)
	b.stateConfig(f, s.State)
	b.protocolConfig(f, &s)
}

// reporter records diagnostics about file f.
func (b *builder) reporter(f *load.File) load.Reporter {
	return f.Reporter(&b.ds)
}

// diag reports at path inside file f.
func (b *builder) diag(f *load.File, sev load.Severity, path, msg, hint string) {
	d := b.reporter(f)
	d.AtOffset(sev, f.Node(path), -1, path, msg, hint)
}

func (b *builder) errorf(f *load.File, path, format string, args ...any) {
	b.diag(f, load.Error, path, fmt.Sprintf(format, args...), "")
}

// entries builds each entry of list, at path[i], and keeps what build
// returns that is not nil; a nil entry (a bare `-`) is reported as empty
// (unless empty is "": the loader reported it).
func entries[S, T any](b *builder, f *load.File, path, empty string, list []*S,
	build func(i int, path string, s *S) *T) []*T {
	var out []*T
	for i, s := range list {
		p := load.IndexPath(path, i)
		if s == nil {
			if empty != "" {
				b.errorf(f, p, "%s", empty)
			}
			continue
		}
		if t := build(i, p, s); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// named checks the name of a tool or prompt (what): one MCP clients accept,
// defined once. It reports whether the name is valid and new; a missing or
// empty name has been reported by the decoder.
func (b *builder) named(f *load.File, path, what, name string) bool {
	switch {
	case name == "":
		return false
	case !validToolName(name):
		b.diag(f, load.Error, path+".name", fmt.Sprintf("invalid %s name %q", what, name),
			"use 1 to 128 letters, digits, '_', '-' or '.'")
		return false
	}
	return b.unique(f, what, name, path+".name")
}

// unique reports a name defined twice, naming both places.
func (b *builder) unique(f *load.File, what, name, path string) bool {
	key := what + ":" + name
	if first, dup := b.seen[key]; dup {
		b.diag(f, load.Error, path, fmt.Sprintf("%s %q is defined twice", what, name), "first defined at "+first.String())
		return false
	}
	b.seen[key] = placeOf(f, f.Node(path))
	return true
}

// place is where a name is defined, rendered file:line:col only when a
// second definition is reported.
type place struct {
	file      string
	line, col int
}

func placeOf(f *load.File, n *yaml.Node) place { return place{f.FileOf(n), n.Line, n.Column} }

func (p place) String() string { return fmt.Sprintf("%s:%d:%d", p.file, p.line, p.col) }

// openBackends opens the shared backends of f.
func (b *builder) openBackends(f *load.File) {
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
		env := &buildEnv{b: b, f: f, path: path, shared: true}
		if !f.DecodeHandler(path, h.Body, cfg, &b.ds) {
			b.backends[name] = broken
			continue
		}
		key := backendKey(f, h)
		entry := &backendEntry{kind: h.Kind}
		if v, ok := b.reuseBackend(name, key); ok {
			entry.value = v
		} else {
			entry.value = cfg.Open(env)
			if c, ok := entry.value.(io.Closer); ok {
				b.plan.Closers = append(b.plan.Closers, c) // closed with the server, or now if the build fails
			}
			b.plan.Carry[name] = &plan.Carried{Key: key, Value: entry.value}
		}
		if entry.value == nil {
			entry.value, entry.err = nil, fmt.Errorf("backend %q: %w", name, handlers.ErrBackendFailed)
		}
		b.backends[name] = entry
		if entry.value != nil {
			b.plan.Backends[name] = entry.value
		}
		b.backendOps(f, path, name, h, entry.value)
	}
}

func (b *builder) kind(f *load.File, path, name string) (handlers.Kind, bool) {
	k, ok := b.opts.Registry.Lookup(name)
	if !ok {
		hint := suggest.DidYouMean(name, b.opts.Registry.Names())
		if hint == "" {
			hint = "known kinds: " + strings.Join(b.opts.Registry.Names(), ", ")
		}
		b.diag(f, load.Error, path+".kind", fmt.Sprintf("unknown kind %q", name), hint)
	}
	return k, ok
}

// buildHandler decodes and builds the handler at path, typed by argsType;
// ann are the annotations of the tool it belongs to, if any; extra types
// the names the tool gives the handler beyond `args` (e.g. `steps`).
func (b *builder) buildHandler(f *load.File, path string, h *spec.Handler, args types.Type, ann *spec.Annotations, extra types.Map) handlers.Handler {
	d := b.decodeHandler(f, path, h)
	if d == nil {
		return nil
	}
	d.env.args, d.env.annotations, d.env.extra = args, ann, extra
	return b.finishHandler(d)
}

// decoded is a handler's configuration, decoded and not yet built.
type decoded struct {
	cfg handlers.Config
	env *buildEnv
}

// decodeHandler resolves the kind of the handler at path and decodes its
// settings; it returns nil after reporting a problem with its kind or
// backend. Settings that did not decode (a misspelt key, a value of the
// wrong type) are reported, and the handler is still built, partially:
// the rest of what the user wrote is checked too.
func (b *builder) decodeHandler(f *load.File, path string, h *spec.Handler) *decoded {
	kindName := h.Kind
	if h.Backend != "" {
		entry, ok := b.backends[h.Backend]
		switch {
		case !ok:
			b.diag(f, load.Error, path+".backend", fmt.Sprintf("unknown backend %q", h.Backend),
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
	ok = f.DecodeHandler(path, h.Body, cfg, &b.ds)
	return &decoded{cfg: cfg, env: &buildEnv{b: b, f: f, path: path, backend: h.Backend, partial: !ok}}
}

// finishHandler builds a decoded handler; a partial one is built only for
// its diagnostics.
func (b *builder) finishHandler(d *decoded) handlers.Handler {
	env := d.env
	hd := d.cfg.Build(env)
	if c, ok := hd.(io.Closer); ok {
		b.plan.Closers = append(b.plan.Closers, c)
	}
	switch {
	case env.partial:
		return nil
	case env.Failed():
		return nil
	case hd == nil:
		b.errorf(env.f, env.path, "handler failed to build")
	}
	return hd
}

// buildEnv is the handlers.BuildEnv of one handler.
type buildEnv struct {
	b       *builder
	f       *load.File
	path    string     // the handler's path, e.g. tools[2].handler
	args    types.Type // type of `args`
	extra   types.Map  // other names the tool provides, e.g. `steps`
	backend string
	// annotations of the tool being built; nil for a resource's handler
	annotations *spec.Annotations
	// input is the tool's input schema; nil for a resource's handler
	input  map[string]any
	failed bool // an error was reported
	shared bool // the env of a `backends:` entry
	// partial is set when some settings did not decode: what the handler
	// reports about settings that are not written (a required field) may
	// be the misspelt one, and is left out.
	partial bool
}

// Annotations implements handlers.ToolAnnotations.
func (e *buildEnv) Annotations() *spec.Annotations { return e.annotations }

// ToolInputSchema implements handlers.ToolInput.
func (e *buildEnv) ToolInputSchema() map[string]any { return e.input }

func (e *buildEnv) Logger() *slog.Logger { return e.b.opts.Logger }

func (e *buildEnv) Diag(field, msg string) { e.DiagAt(field, -1, msg) }

func (e *buildEnv) DiagAt(field string, off int, msg string) {
	e.failed = true
	path := load.JoinPath(e.path, field)
	if !e.reportable(path) {
		return
	}
	d := e.b.reporter(e.f)
	d.AtOffset(load.Error, e.f.Node(path), off, path, msg, "")
}

func (e *buildEnv) Failed() bool { return e.failed }

// reportable tells whether a problem at path is worth reporting: always,
// unless the handler is partial and path is not written in the file, or
// its settings at or around path drew a problem when they were decoded
// (the same mistake, seen again).
func (e *buildEnv) reportable(path string) bool {
	if !e.partial {
		return true
	}
	if path == e.path || !e.f.Written(path) {
		return false
	}
	for _, d := range e.b.ds {
		if d.File == e.f.Path && d.Path != e.path && (within(path, d.Path) || within(d.Path, path)) {
			return false
		}
	}
	return true
}

// within reports whether path is base or a path under it.
func within(path, base string) bool {
	rest, ok := strings.CutPrefix(path, base)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

func (e *buildEnv) Warn(field, msg string) {
	if p := load.JoinPath(e.path, field); !e.reportable(p) || e.f.Skipped(p) {
		return
	}
	e.b.diag(e.f, load.Warning, load.JoinPath(e.path, field), msg, "")
}

func (e *buildEnv) Compile(field string, v *spec.Value, vars types.Map) *eval.Value {
	if v.IsZero() {
		return eval.Const(nil)
	}
	path := load.JoinPath(e.path, field)
	val := e.b.compile(e.f, path, v.Node, e.env(vars))
	if _, ok := e.extra[plan.AuthName]; ok {
		e.b.readsAuth(e.f, path, val)
	}
	e.failed = e.failed || val == nil
	return val
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
	t := e.b.template(e.f, load.JoinPath(e.path, field), text, roots)
	e.failed = e.failed || t == nil
	return t
}

func (e *buildEnv) Backend(name string) (any, error) {
	if name == "" {
		name = e.backend
	}
	if name == "" {
		return nil, handlers.ErrNoBackend
	}
	entry, ok := e.b.backends[name]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w %q", handlers.ErrUnknownBackend, name)
	case entry.broken:
		return nil, fmt.Errorf("backend %q: %w", name, handlers.ErrBackendFailed)
	}
	return entry.value, entry.err
}

func (e *buildEnv) Path(p string) string {
	if p == "" {
		return p
	}
	return e.b.path(e.f, p)
}

// path resolves p against the directory of f ("" is that directory) and
// reports it to Options.Referenced.
func (b *builder) path(f *load.File, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(f.Dir, p)
	}
	if b.opts.Referenced != nil {
		b.opts.Referenced(p)
	}
	return p
}

func (e *buildEnv) Redact(s string) string { return e.b.redact.Apply(s) }

// compile compiles a value at path, reporting errors inside its scalars.
func (b *builder) compile(f *load.File, path string, n *yaml.Node, env types.Map) *eval.Value {
	var read []string
	lookup := f.EnvAt(path)
	opts := eval.Options{Env: func(name string) (string, bool) {
		read = append(read, name)
		return lookup(name)
	}}
	v, errs := eval.Compile(n, env, opts)
	for _, e := range errs {
		d := b.reporter(f)
		d.AtOffset(load.Error, e.Node, e.Offset, path, e.Msg, e.Hint)
	}
	if len(errs) > 0 {
		return nil
	}
	deriveSecret(f, path, v, env, read)
	return v
}

// deriveSecret records, as a secret, what a credential field computes
// from values read as env.NAME when it depends on nothing else (such as
// "Basic ${{ toBase64(env.API_USER + ':' + env.API_PASSWORD) }}"), so
// that the credential is masked whole, not only its inputs (which are
// secrets too, having fed a credential field).
func deriveSecret(f *load.File, path string, v *eval.Value, env types.Map, read []string) {
	if len(read) == 0 || !load.CredentialField(path) {
		return
	}
	for name := range env {
		if v.Uses(name) {
			return // computed per call
		}
	}
	if x, err := v.Eval(map[string]any{}); err == nil {
		if s, ok := x.(string); ok {
			f.Secrets.AddCredential("", s)
		}
	}
}

// evalOptions lets expressions at path in f read the environment as
// env.NAME.
func evalOptions(f *load.File, path string) eval.Options {
	return eval.Options{Env: f.EnvAt(path)}
}

// template parses text at path; errors point at their character inside
// the scalar when its style lets the position be known.
func (b *builder) template(f *load.File, path, text string, roots map[string][]string) *templates.Template {
	t, err := b.tmpls.Parse(path, text, roots)
	if err == nil {
		return t
	}
	d := b.reporter(f)
	d.AtOffset(load.Error, f.Node(path), templateOffset(text, err), path, err.Msg, err.Hint)
	return nil
}

// templateOffset is the byte offset in text of a template error's line and
// column, or -1 when the error has no position.
func templateOffset(text string, err *templates.Error) int {
	if err.Line < 1 || err.Line == 1 && err.Col < 1 {
		return -1
	}
	off := 0
	for range err.Line - 1 {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	line, _, _ := strings.Cut(text[off:], "\n")
	return off + min(max(err.Col-1, 0), len(line))
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

func newPlan(logger *slog.Logger) *plan.Plan {
	index := map[string]*plan.Tool{} // the same map until Select narrows ToolIndex
	return &plan.Plan{Info: plan.Info{Name: "mcpgen", Version: "0.0.0"}, Logger: logger, ToolIndex: index, AllTools: index,
		Backends: map[string]any{}, Identity: identity.New(), LogLevels: &loglevel.Sessions{}, Carry: map[string]*plan.Carried{},
		Limits: limits.NewSet(), Obs: &observe.Observer{}, Search: &plan.SearchIndex{}}
}
