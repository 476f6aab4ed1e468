package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/handlers"
)

// MaxSize bounds the JSON arguments of one tool call.
const MaxSize = 4 << 20

// ErrInvalid marks arguments the schema rejects.
var ErrInvalid = errors.New("invalid arguments")

// Args checks and decodes the arguments of one tool's calls. It is built
// once per tool, at build time, from the tool's one Schema, and does not
// change afterwards (the one-pass checker is made on the first call).
type Args struct {
	schema *Schema
	bound  []string // arguments the server sets from the caller; a client cannot pass them
	fill   []fill   // top-level arguments with a default or of type number
	// check decodes and checks arguments without the validator, when it
	// can (check.go, scan.go); made on first use, like the compiled schema.
	check     *argCheck
	checkOnce sync.Once
}

// fill is what a call's arguments need after validation: a default for
// an argument not passed, and a number kept a float even when it is whole.
type fill struct {
	name       string
	def        any
	hasDefault bool
	number     bool
}

// NewArgs returns the checker of the arguments that s describes; bound
// names the arguments the server sets from the caller, which a client may
// not pass. It returns nil for a nil schema.
func NewArgs(s *Schema, bound []string) *Args {
	if s == nil {
		return nil
	}
	return &Args{schema: s, bound: bound, fill: fills(s)}
}

// Schema returns the schema the arguments are checked against.
func (a *Args) Schema() *Schema { return a.schema }

// fills reads, once, what Decode applies on every call.
func fills(s *Schema) []fill {
	props, _ := s.doc["properties"].(map[string]any)
	var out []fill
	for name, p := range props {
		p, _ := p.(map[string]any)
		d, hasDefault := p["default"]
		if f := (fill{name: name, def: d, hasDefault: hasDefault, number: p["type"] == "number"}); f.hasDefault || f.number {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b fill) int { return strings.Compare(a.name, b.name) })
	return out
}

// Decode parses, validates and completes a call's arguments, in this
// order: the one pass that decodes and checks them (scan.go) when it is
// sure, else the general decoder and the full validator (validate.go),
// which give the error; then the defaults and the number types the handler
// expects. Every error wraps ErrInvalid.
func (a *Args) Decode(raw json.RawMessage) (map[string]any, error) {
	if len(raw) > MaxSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalid, MaxSize)
	}
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{}`) // no arguments: checked as none
	}
	args, checked := a.quick(raw)
	if !checked {
		var err error
		if args, err = decodeObject(raw); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
	}
	for _, name := range a.bound {
		if _, ok := args[name]; ok {
			return nil, fmt.Errorf("%w: %s is set by the server from the caller's identity and cannot be passed", ErrInvalid, name)
		}
	}
	if !checked {
		if err := a.schema.validateNumbers(args); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		handlers.Numbers(args)
	}
	a.complete(args)
	return args, nil
}

// quick decodes and checks arguments in one pass, if the schema allows it:
// ok means they are valid, and args are what the general way would have
// made of them (numbers typed).
func (a *Args) quick(raw []byte) (args map[string]any, ok bool) {
	a.checkOnce.Do(func() { a.check = newArgCheck(a.schema.doc) })
	if a.check == nil {
		return nil, false
	}
	return a.check.decode(raw)
}

// complete adds the defaults of the arguments not passed and keeps the
// numbers of type number floats.
func (a *Args) complete(args map[string]any) {
	for _, f := range a.fill {
		if _, given := args[f.name]; !given && f.hasDefault {
			args[f.name] = copyValue(f.def) // each call gets its own: a handler may change it
		}
		if i, ok := args[f.name].(int64); ok && f.number {
			args[f.name] = float64(i)
		}
	}
}

// copyValue copies the lists and objects of a decoded JSON value.
func copyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyValue(e)
		}
		return out
	}
	return v
}
