package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schema is a compiled JSON Schema together with the JSON it was compiled
// from (served verbatim in tools/list) and its decoded form (which types the
// expression environment).
type schema struct {
	raw      json.RawMessage
	doc      map[string]any
	compiled *jsonschema.Schema
	// lazy, when set, compiles on first use: for schemas mcpgen generated
	// itself, which cannot fail to compile, so startup need not pay for them.
	lazy func() (*jsonschema.Schema, error)
	once sync.Once
	err  error // from the lazy compilation
	// check decodes and checks arguments without the validator, when it
	// can (argcheck.go); made on first use, like the compiled schema.
	check     *argCheck
	checkOnce sync.Once
}

// noLoader refuses every external reference: a schema in a config is
// self-contained, and loading a URL or file at build time is not wanted.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %q is not allowed; put the schema under $defs", url)
}

// schemaCompiler compiles many schemas with one compiler, which loads the
// metaschemas once. Its methods are safe for concurrent use.
type schemaCompiler struct {
	mu sync.Mutex
	c  *jsonschema.Compiler
	n  int
}

func newSchemaCompiler() *schemaCompiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // MCP's default dialect, whatever the library's latest
	c.UseLoader(noLoader{})
	return &schemaCompiler{c: c}
}

// compile compiles raw JSON as a JSON Schema (draft 2020-12 unless $schema
// says otherwise) whose root must describe an object.
func (sc *schemaCompiler) compile(name string, raw []byte) (*schema, error) {
	s, err := sc.prepare(name, raw)
	if err != nil {
		return nil, err
	}
	s.compiled, err = s.lazy()
	s.lazy = nil
	if err != nil {
		return nil, err
	}
	return s, nil
}

// compileLazily prepares a schema mcpgen generated, whose compilation
// cannot fail, to be compiled when it is first used.
func (sc *schemaCompiler) compileLazily(name string, raw []byte) (*schema, error) {
	return sc.prepare(name, raw)
}

// prepare checks the root of a schema and decodes it, leaving the
// compilation in s.lazy.
func (sc *schemaCompiler) prepare(name string, raw []byte) (*schema, error) {
	plain, err := decodeJSON(raw) // numbers as int64/float64, for the expression types
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
	return sc.deferred(name, raw, m), nil
}

// deferred returns the schema of raw, decoded as doc, with its compilation
// left in s.lazy.
func (sc *schemaCompiler) deferred(name string, raw []byte, doc map[string]any) *schema {
	s := &schema{raw: raw, doc: doc}
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

func (sc *schemaCompiler) compileDoc(name string, doc any) (*jsonschema.Schema, error) {
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

func cleanSchemaError(msg, url string) string {
	msg = strings.ReplaceAll(msg, url+"#", "")
	msg = strings.ReplaceAll(msg, url, "")
	return strings.ReplaceAll(msg, "jsonschema: ", "")
}

var printer = message.NewPrinter(language.English)

// ready compiles a lazily compiled schema, once.
func (s *schema) ready() error {
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

// quickArgs decodes and checks a call's arguments without the general
// decoder and validator, if it can: ok means they are valid, and args are
// what decodeArgs would have made of them (numbers typed); otherwise
// decodeArgs takes the general way, which finds the errors.
func (s *schema) quickArgs(raw []byte) (args map[string]any, ok bool) {
	s.checkOnce.Do(func() { s.check = newArgCheck(s.doc) })
	if s.check == nil {
		return nil, false
	}
	return s.check.decode(raw)
}

// validate checks v (decoded with decodeJSON) against the schema. The error
// names every failing location and rule, for a model to correct its call.
func (s *schema) validate(v any) error {
	return s.validateNumbers(toValidatable(v))
}

// validateNumbers is validate for a value whose numbers are json.Number
// already, as decodeNumbers leaves them: nothing is copied.
func (s *schema) validateNumbers(v any) error {
	if err := s.ready(); err != nil {
		return err
	}
	err := s.run(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	return errors.New(leafErrors(ve))
}

// errNumberRange is what the validator cannot check: a number whose
// exponent math/big refuses (beyond about a million), against a bound.
var errNumberRange = errors.New("a number is out of the range the schema validator can compare")

// run runs the validator. It recovers from the panic of
// santhosh-tekuri/jsonschema v6.0.3 on errNumberRange's numbers (a nil
// *big.Rat in numValidate), which would end the whole server.
func (s *schema) run(v any) (err error) {
	defer func() {
		if recover() != nil {
			err = errNumberRange
		}
	}()
	return s.compiled.Validate(v)
}

// leafErrors renders the innermost causes of a validation error, one per
// failing location and rule: "at /limit: maximum: got 900, want 100".
func leafErrors(ve *jsonschema.ValidationError) string {
	var msgs []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			msgs = append(msgs, fmt.Sprintf("at %s: %s", loc, e.ErrorKind.LocalizedString(printer)))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(msgs)
	return strings.Join(slices.Compact(msgs), "; ")
}

// toValidatable converts int64/float64 into json.Number, which is what the
// validator expects for numbers.
func toValidatable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toValidatable(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toValidatable(e)
		}
		return out
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case int:
		return json.Number(strconv.Itoa(v))
	case float64:
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return v
}

// decodeJSON decodes JSON with whole numbers as int64 and others as float64.
func decodeJSON(raw []byte) (any, error) {
	v, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	return handlers.Numbers(v), nil
}

// decodeNumbers decodes JSON with numbers left as json.Number.
func decodeNumbers(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}
