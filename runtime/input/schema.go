// Package input holds a tool's input: the one schema value compiled from
// its args or input_schema (which also types its expressions), and the
// checker of the arguments of its calls built from that value.
//
// At build time a Compiler turns a schema into a Schema (schema.go,
// doc.go, generate.go) and reports what is wrong with it or its defaults
// (compileerr.go, defaults.go); NewArgs makes a tool's Args from it
// (args.go). At call time Args.Decode (args.go) takes a call's raw
// arguments forward: the decoder and the schema's validator (validate.go),
// then the defaults and the number types the handler expects (fill.go).
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is a compiled JSON Schema together with the JSON it was compiled
// from (served verbatim in tools/list) and its decoded form (which types the
// expression environment). It does not change once compiled.
type Schema struct {
	name     string // the first tool's, as in "get_user/input"
	raw      json.RawMessage
	doc      map[string]any
	compiled *jsonschema.Schema
	// lazy, when set, compiles on first use: for schemas mcpgen generated
	// itself, which cannot fail to compile, so startup need not pay for them.
	lazy func() (*jsonschema.Schema, error)
	once sync.Once
	err  error // from the lazy compilation
	// docLater: doc is decoded by Doc, once, and docErr is why it could
	// not be (with Compiler.Lazy: an output schema's is never needed to
	// serve, only to call)
	docLater bool
	docOnce  sync.Once
	docErr   error
}

// Raw returns the JSON the schema was compiled from.
func (s *Schema) Raw() json.RawMessage { return s.raw }

// Doc returns the schema decoded with DecodeJSON. Callers must not change it.
// A lazily compiled schema given verbatim is decoded on the first call.
func (s *Schema) Doc() map[string]any {
	if s.docLater {
		s.docOnce.Do(func() { s.doc, s.docErr = decodeRoot(s.raw) })
	}
	return s.doc
}

// noLoader refuses every external reference: a schema in a config is
// self-contained, and loading a URL or file at build time is not wanted.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not allowed; put the schema under $defs", url)
}

// Compiler compiles many schemas with one compiler, which loads the
// metaschemas once. Its methods are safe for concurrent use.
type Compiler struct {
	mu sync.Mutex
	c  *jsonschema.Compiler
	n  int
	// Lazy defers the compilation of every schema to its first use (or
	// CompileAll): a server starts without paying for the schemas of tools
	// nobody calls yet. `validate` leaves it off, so it reports every error.
	Lazy bool
	// memo holds the schemas already compiled, by their JSON: an imported
	// API description repeats the same schemas across many operations, and
	// a Schema does not change once compiled.
	memoMu sync.Mutex
	memo   map[string]memoEntry
	all    []*Schema // every distinct schema, for CompileAll
}

type memoEntry struct {
	s   *Schema
	err error
}

// NewCompiler returns a compiler of draft 2020-12 schemas (unless $schema
// says otherwise) that refuses external references.
func NewCompiler() *Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // MCP's default dialect, whatever the library's latest
	c.UseLoader(noLoader{})
	return &Compiler{c: c}
}

// Compile compiles raw JSON as a JSON Schema (draft 2020-12 unless $schema
// says otherwise) whose root must describe an object.
//
// The same JSON compiles once: a second call returns the first's result.
func (sc *Compiler) Compile(name string, raw []byte) (*Schema, error) {
	sc.memoMu.Lock()
	e, ok := sc.memo[string(raw)]
	sc.memoMu.Unlock()
	if ok {
		return e.s, e.err
	}
	s, err := sc.compile(name, raw)
	sc.memoMu.Lock()
	defer sc.memoMu.Unlock()
	if sc.memo == nil {
		sc.memo = map[string]memoEntry{}
	}
	sc.memo[string(raw)] = memoEntry{s, err}
	if s != nil {
		sc.all = append(sc.all, s)
	}
	return s, err
}

func (sc *Compiler) compile(name string, raw []byte) (*Schema, error) {
	if sc.Lazy {
		return sc.later(name, raw), nil
	}
	s, err := sc.prepare(name, raw)
	if err != nil {
		return s, err
	}
	s.compiled, err = s.lazy()
	s.lazy = nil
	if err != nil {
		return nil, err
	}
	return s, nil
}

// CompileAll compiles every schema Compile deferred (with Lazy set) and
// returns the errors, each naming its schema. A server calls it after it
// starts, to log what validate would have reported.
func (sc *Compiler) CompileAll() []error {
	sc.memoMu.Lock()
	all := slices.Clone(sc.all)
	sc.memoMu.Unlock()
	var errs []error
	for _, s := range all {
		if err := s.ready(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
		}
	}
	return errs
}

// CompileLazily prepares a schema mcpgen generated, whose compilation
// cannot fail, to be compiled when it is first used.
func (sc *Compiler) CompileLazily(name string, raw []byte) (*Schema, error) {
	return sc.prepare(name, raw)
}

// prepare checks the root of a schema and decodes it, leaving the
// compilation in s.lazy.
func (sc *Compiler) prepare(name string, raw []byte) (*Schema, error) {
	m, err := decodeRoot(raw)
	if err != nil {
		return nil, err
	}
	return sc.deferred(name, raw, m), nil
}

// later returns a schema whose decoding, checks and compilation all wait
// for its first use.
func (sc *Compiler) later(name string, raw []byte) *Schema {
	s := sc.deferred(name, raw, nil)
	s.docLater = true
	compile := s.lazy
	s.lazy = func() (*jsonschema.Schema, error) {
		if s.Doc(); s.docErr != nil {
			return nil, s.docErr
		}
		return compile()
	}
	return s
}

// decodeRoot decodes a schema (numbers as int64/float64, for the
// expression types) and checks its root.
func decodeRoot(raw []byte) (map[string]any, error) {
	plain, err := DecodeJSON(raw)
	if err != nil {
		return nil, err
	}
	m, ok := plain.(map[string]any)
	if !ok {
		return nil, errors.New("a schema is a mapping")
	}
	if t, _ := m["type"].(string); t != "object" {
		return nil, errors.New(`the root of a tool's schema must have type: object`)
	}
	return m, nil
}

// deferred returns the schema of raw, decoded as doc, with its compilation
// left in s.lazy.
func (sc *Compiler) deferred(name string, raw []byte, doc map[string]any) *Schema {
	s := &Schema{raw: raw, doc: doc, name: name}
	s.lazy = func() (*jsonschema.Schema, error) {
		// the validator wants its own form of the document (numbers as
		// json.Number); decoding it is part of the deferred work
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return sc.compileDoc(name, doc)
	}
	return s
}

func (sc *Compiler) compileDoc(name string, doc any) (*jsonschema.Schema, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.n++
	url := fmt.Sprintf("mcpgen:///%d/%s", sc.n, name)
	if err := sc.c.AddResource(url, doc); err != nil {
		return nil, err
	}
	compiled, err := sc.c.Compile(url)
	if err != nil {
		return nil, schemaCompileError(err, url)
	}
	return compiled, nil
}

// ready compiles a lazily compiled schema, once.
func (s *Schema) ready() error {
	s.once.Do(func() {
		if s.lazy != nil {
			var err error
			if s.compiled, err = s.lazy(); err != nil {
				s.err = fmt.Errorf("the schema does not compile: %w", err)
			}
		}
	})
	return s.err
}

// DecodeJSON decodes JSON with whole numbers as int64 and others as float64.
func DecodeJSON(raw []byte) (any, error) {
	v, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	return handlers.Numbers(v), nil
}
