// Package handlers defines how mcpgen runs a tool on a backend: a Kind names
// a backend and makes its configuration; the configuration builds a Handler;
// a Handler answers calls.
//
// Each backend lives in a package of its own (shellkind, httpkind, sqlkind)
// and is registered in a Registry value; nothing registers itself in init.
//
// # Writing a kind
//
// A kind is a package named for it with "kind" after (echokind). Its config
// struct is what users write under `handler:`; the loader decodes the YAML
// into it strictly, and the JSON Schema and reference docs are generated
// from it, so every field gets a doc comment written for the YAML author.
// Rules are declared, not checked by hand: `jsonschema:"required"` and
// `jsonschema:"enum=a,enum=b"` for required fields and enumerations, an
// `mcpgen:"exactly_one=NAME"` or `mcpgen:"at_most_one=NAME"` option for
// keys that exclude each other (package spec/rule). Build is called only
// when the decoded config keeps them.
//
//	// Config is the `handler:` of a tool of kind echo.
//	type Config struct {
//		// Text is echoed back, a value that may hold ${{ expressions }}.
//		Text *spec.Value `yaml:"text,omitempty" mcpgen:"exactly_one=what"`
//		// Args echoes all the arguments as JSON.
//		Args bool `yaml:"args,omitempty" mcpgen:"exactly_one=what"`
//		// Case is upper or lower.
//		Case string `yaml:"case,omitempty" jsonschema:"enum=upper,enum=lower"`
//	}
//
// Build checks what the declarations cannot say and compiles expressions
// and templates through the BuildEnv, which reports every problem with the
// position of the field in the user's file (DiagAt, at a character inside
// it). It reports every problem it finds, not only the first, and returns
// nil when env.Failed(): a problem found by Diag, DiagAt, Compile or
// Template all count.
//
//	func (c *Config) Build(env handlers.BuildEnv) handlers.Handler {
//		h := &handler{upper: c.Case == "upper", all: c.Args}
//		if c.Text != nil {
//			h.text = env.Compile("text", c.Text, nil)
//		}
//		if env.Failed() {
//			return nil
//		}
//		return h
//	}
//
// The Handler answers calls; a returned error is the tool's error result.
// A handler that holds something to release (a pool, a process)
// implements io.Closer: it is closed on shutdown, and after a failed build.
// A kind reaches shared `backends:` entries through env.Backend and compares
// its errors with errors.Is (ErrNoBackend, ErrUnknownBackend,
// ErrBackendFailed), never by their text.
//
//	func (h *handler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
//		v, err := h.text.Eval(map[string]any{"args": c.Args, "steps": c.Steps})
//		...
//		return handlers.TextResult(s), nil
//	}
//
//	func (h *handler) Close() error { return nil }
//
//	var (
//		_ handlers.Config  = (*Config)(nil)
//		_ handlers.Handler = (*handler)(nil)
//		_ io.Closer        = (*handler)(nil)
//	)
//
// Kind() returns the Kind value that cmd/mcpgen (handlers/builtin) puts in
// its Registry. Tests run the shared behaviour suite, handlertest.Run, with
// a Suite of configs that hang, time out, produce too much and fail, and
// check diagnostics with handlertest.Diagnose.
package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

// A Kind is one backend: the name used as `kind:` in the config and the
// constructors of its configuration types.
type Kind struct {
	// Name is the `kind:` discriminator, lower_snake.
	Name string
	// Doc is one sentence for `mcpgen schema` and the reference docs.
	Doc string
	// NewConfig returns a fresh, zero configuration for one tool's handler.
	// Runtime decodes the YAML into it, strictly, then calls Build.
	NewConfig func() Config
	// NewBackend, if set, returns a fresh configuration for a named entry of
	// the top-level `backends` (a connection shared by many tools).
	NewBackend func() BackendConfig
}

// Config is the configuration of one handler, decoded from YAML.
type Config interface {
	// Build checks the configuration, reporting every problem through
	// env.Diag, and returns the Handler. It returns nil after reporting.
	Build(env BuildEnv) Handler
}

// BackendConfig is the configuration of a named, shared backend.
type BackendConfig interface {
	// Open checks the configuration and returns the shared resource that
	// handlers reach through BuildEnv.Backend. It does not connect to
	// anything that may be down; a failed connection is a tool error at call
	// time. It returns nil after reporting through env.Diag.
	Open(env BuildEnv) any
}

// BuildEnv is what runtime gives a Config while it builds.
type BuildEnv interface {
	// Logger is for operators (stderr), never for the protocol.
	Logger() *slog.Logger
	// Diag reports an error at field, a dotted path inside the handler's
	// config such as "headers.Authorization" or "command[2]".
	Diag(field, msg string)
	// DiagAt reports an error at byte off of the text of field, a string:
	// a placeholder inside an SQL statement, an expression inside a longer
	// string. The position points at that character where the field's
	// YAML style lets it be known (plain and quoted text on one line,
	// literal blocks), and at the field otherwise.
	DiagAt(field string, off int, msg string)
	// Failed reports whether an error has been reported while building this
	// handler: through Diag or DiagAt, or by Compile or Template returning
	// nil. Build returns nil when it has.
	Failed() bool
	// Warn reports a warning at field.
	Warn(field, msg string)
	// Compile compiles a value whose strings may hold ${{ expressions }}
	// over the tool's arguments (`args`) and the extra names in vars, which
	// the handler provides at call time. Errors are reported at field; the
	// result is nil then.
	Compile(field string, v *spec.Value, vars types.Map) *eval.Value
	// Template parses a text template over `.args` and the extra names in
	// vars. Errors are reported at field; the result is nil then.
	Template(field, text string, vars ...string) *templates.Template
	// Backend returns the shared resource opened for the named entry of
	// `backends` (the handler's own `backend:` when name is empty), or an
	// error saying why there is none: ErrNoBackend, ErrUnknownBackend or
	// ErrBackendFailed, wrapped with the name.
	Backend(name string) (any, error)
	// Path resolves a path written in the config relative to the directory
	// of the file it was written in.
	Path(p string) string
	// Redact masks every secret (value taken from the environment) in s.
	Redact(s string) string
}

// Errors of BuildEnv.Backend; compare with errors.Is.
var (
	// ErrNoBackend: the handler has no `backend:` and no name was given.
	ErrNoBackend = errors.New("no backend named")
	// ErrUnknownBackend: no entry of `backends` has that name.
	ErrUnknownBackend = errors.New("unknown backend")
	// ErrBackendFailed: the entry's configuration was reported as wrong.
	ErrBackendFailed = errors.New("backend failed to build")
)

// ToolAnnotations is implemented by the BuildEnv of a tool's handler. It
// gives the tool's declared annotations (nil when it has none), so that a
// kind can warn when they contradict what the handler does, such as a
// read_only tool that sends POST.
type ToolAnnotations interface {
	Annotations() *spec.Annotations
}

// ToolInput is implemented by the BuildEnv of a tool's handler. It gives
// the tool's input schema, a JSON Schema decoded from JSON (nil for a
// resource's handler), so that a kind can check the arguments it maps
// against what it sends, such as a GraphQL operation's variable types.
type ToolInput interface {
	ToolInputSchema() map[string]any
}

// CallerEnv is implemented by the BuildEnv of backends and of handlers.
// It serves kinds that act for the caller by themselves, beyond the
// expressions a tool's handler compiles with Compile (which know `auth`
// already): a backend that compiles expressions over the caller, and a
// handler that runs them.
type CallerEnv interface {
	// AuthType is the type of `auth` (subject, client_id, scopes and the
	// claims as declared), for Compile's vars.
	AuthType() types.Type
	// ActForCaller records that the handler being built acts for its
	// caller: its tool then refuses calls without one (stdio, HTTP
	// without auth), its cached results are kept per caller, and
	// handlers.Call.Auth is set. At a backend, and at a handler, it
	// reports at field, saying why (what acts for the caller), when no
	// caller can ever be there: callers do not authenticate, or the
	// handler is a resource's or a completion's. It returns false then.
	ActForCaller(field, why string) bool
}

// InputSchemer is implemented by configs that know their tool's
// arguments, such as a GraphQL operation's variables. For a tool that
// declares neither `args` nor `input_schema`, runtime calls InputSchema
// before Build, with the same env, and serves the schema it returns (a
// JSON Schema as decoded from JSON) as the tool's input schema; nil keeps
// the tool without arguments. InputSchema may report problems through env
// but must not call Compile or Template: the arguments are not typed yet.
type InputSchemer interface {
	InputSchema(env BuildEnv) map[string]any
}

// WarnAter is implemented by the BuildEnv of handlers: WarnAt reports a
// warning at byte off of the text of field, as DiagAt reports an error.
type WarnAter interface {
	WarnAt(field string, off int, msg string)
}

// WarnAt reports a warning at byte off of field's text where env can, and
// at field otherwise.
func WarnAt(env BuildEnv, field string, off int, msg string) {
	if w, ok := env.(WarnAter); ok {
		w.WarnAt(field, off, msg)
		return
	}
	env.Warn(field, msg)
}

// InputExtender is implemented by configs that add arguments of their own
// to their tool's input schema, such as the `cursor` of a paged SQL query.
// Runtime calls ExtendInput before Build, with the same env and the tool's
// input schema (as decoded from JSON; not to be changed), and adds each
// property returned that the schema does not have, as an optional
// argument. ExtendInput may report problems through env (an argument the
// tool declares itself with another type) but must not call Compile or
// Template.
type InputExtender interface {
	ExtendInput(env BuildEnv, schema map[string]any) map[string]any
}

// A Handler runs calls of one tool.
type Handler interface {
	// Call runs the tool. A returned error becomes a tool error result
	// (isError: true) whose text is the error's message; it is never a
	// protocol error. Call honours ctx: on cancellation it stops its work
	// and returns promptly.
	Call(ctx context.Context, c *Call) (*Result, error)
}

// DryRunner is implemented by handlers that can show what a call would do
// without doing it (`mcpgen call --dry-run`): for example the exact HTTP
// request, with secrets masked.
type DryRunner interface {
	// DryRun describes, as text for people, what Call would send or run
	// with these arguments. It has no side effect.
	DryRun(ctx context.Context, c *Call) (string, error)
}

// ResultShaper is implemented by handlers that know, when the config
// loads, what their structured result is (its type, an object's keys),
// so that runtime can check the tool's output_schema against it: a result
// that can never match is a configuration error, not a failure of every
// call.
type ResultShaper interface {
	// ResultShape is the shape of Result.Structured, nil when not known.
	ResultShape() *eval.Shape
}

// ObjectShape is the shape of Object(x) for x of shape s.
func ObjectShape(s *eval.Shape) *eval.Shape {
	switch {
	case s == nil || s.Type == "":
		return nil
	case s.Type == "object":
		return s
	case s.Type == "array":
		return &eval.Shape{Type: "object", Closed: true, Props: map[string]*eval.Shape{"items": s}}
	}
	return &eval.Shape{Type: "object", Closed: true, Props: map[string]*eval.Shape{"value": s}}
}

// Hinter is implemented by handlers that know whether their tool writes.
// Runtime puts the hints in the tool's annotations where the config left
// them unset, and warns where the config says otherwise.
type Hinter interface {
	// Hints describes the tool's behaviour as far as the handler knows it.
	Hints() Hints
}

// Hints are what a handler knows about its tool's behaviour; nil is unknown.
type Hints struct {
	// ReadOnly: the tool does not modify its environment.
	ReadOnly *bool
	// Destructive: the tool may delete or overwrite data.
	Destructive *bool
}

// Pinger is implemented by shared backends that can check that what they
// connect to answers (a database); `mcpgen validate --connect` uses it
// through runtime.Server.Ping.
type Pinger interface {
	// Ping returns an error saying why the backend cannot be reached.
	Ping(ctx context.Context) error
}

// Completer is implemented by handlers that can list completion values
// (for a prompt argument or a template variable) better than by their text
// result, which is otherwise read one value per line.
type Completer interface {
	// Complete runs the handler and returns the values it lists.
	Complete(ctx context.Context, c *Call) ([]string, error)
}

// Call is one invocation of a tool.
type Call struct {
	// Args are the validated arguments, defaults applied, decoded from JSON:
	// map[string]any, []any, string, float64 or int64 (whole numbers), bool, nil.
	Args map[string]any
	// Notify reports logs and progress to the client; never nil.
	Notify Notifier
	// Steps holds the results of the tool's steps (sample, elicit) by their
	// `as` name. Handlers pass it as `steps` when they evaluate expressions:
	// BuildEnv.Compile declares `steps` for tools that have named steps.
	Steps map[string]any
	// Auth is the authenticated caller as expressions see it (`auth`):
	// subject, client_id, scopes and claims. Nil when the tool's
	// expressions do not read `auth`, and when nobody authenticated
	// (runtime refuses the calls of a tool that reads `auth` then).
	Auth map[string]any
	// Item is the element of a call step's for_each that this call is for
	// (`item` in expressions); nil otherwise.
	Item any
}

// Vars returns the names a handler's expressions are given: `args`,
// `steps` and `auth`, and `item` in a call step's for_each.
func (c *Call) Vars() map[string]any {
	if c.Item != nil {
		return map[string]any{"args": c.Args, "steps": c.Steps, "auth": c.Auth, "item": c.Item}
	}
	return map[string]any{"args": c.Args, "steps": c.Steps, "auth": c.Auth}
}

// Notifier sends notifications about a call to the client that made it.
// Implementations drop what the client did not ask for (a log below the
// level it set, progress without a progress token).
type Notifier interface {
	// Log sends a log message at level with structured data.
	Log(ctx context.Context, level slog.Level, msg string, data map[string]any)
	// Progress reports progress so far, with total if known (0 if not).
	Progress(ctx context.Context, progress, total float64, msg string)
}

// LevelEnabler is implemented by Notifiers that know which log levels the
// client wants, so that handlers can skip building messages nobody reads.
type LevelEnabler interface {
	Enabled(ctx context.Context, level slog.Level) bool
}

// LogEnabled reports whether n would send a log at level; true when n
// cannot tell.
func LogEnabled(ctx context.Context, n Notifier, level slog.Level) bool {
	if le, ok := n.(LevelEnabler); ok {
		return le.Enabled(ctx, level)
	}
	return true
}

// Nop is a Notifier that drops everything.
type Nop struct{}

// Enabled reports false: nothing is sent.
func (Nop) Enabled(context.Context, slog.Level) bool { return false }

// Log drops the message.
func (Nop) Log(context.Context, slog.Level, string, map[string]any) {}

// Progress drops the report.
func (Nop) Progress(context.Context, float64, float64, string) {}

// Result is what a Handler returns.
type Result struct {
	// Content blocks of the result. When empty, runtime renders Structured
	// as pretty JSON text.
	Content []Content
	// Structured is the result as data (structuredContent), validated
	// against the tool's output schema when it has one. Nil for none.
	Structured any
	// IsError marks a result the model should read as a failure.
	IsError bool
}

// Object makes a result an object, as structuredContent must be: a list
// becomes {items: [...]}, any other value that is not an object
// {value: ...}.
func Object(x any) map[string]any {
	switch x := x.(type) {
	case map[string]any:
		return x
	case []any:
		return map[string]any{"items": x}
	}
	return map[string]any{"value": x}
}

// Registry holds the known backend kinds.
type Registry struct {
	kinds map[string]Kind
}

// NewRegistry returns a registry holding kinds. It panics on an empty or
// duplicate name: that is a programming error, not a user's.
func NewRegistry(kinds ...Kind) *Registry {
	r := &Registry{kinds: map[string]Kind{}}
	for _, k := range kinds {
		if k.Name == "" || k.NewConfig == nil {
			panic("handlers: kind without a name or NewConfig")
		}
		if _, dup := r.kinds[k.Name]; dup {
			panic(fmt.Sprintf("handlers: kind %q registered twice", k.Name))
		}
		r.kinds[k.Name] = k
	}
	return r
}

// Lookup returns the kind named name.
func (r *Registry) Lookup(name string) (Kind, bool) {
	k, ok := r.kinds[name]
	return k, ok
}

// Names returns the registered kind names, sorted.
func (r *Registry) Names() []string {
	return slices.Sorted(maps.Keys(r.kinds))
}

// Numbers types the numbers of a JSON value decoded with UseNumber as
// Call.Args holds them: int64 for whole numbers, float64 for others. It
// changes maps and lists in place and returns the value.
func Numbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = Numbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = Numbers(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	}
	return v
}
