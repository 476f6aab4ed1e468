package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// MaxSize bounds the JSON arguments of one tool call.
const MaxSize = 4 << 20

// ErrInvalid marks arguments the schema rejects.
var ErrInvalid = errors.New("invalid arguments")

// Args checks and decodes the arguments of one tool's calls. It is built
// once per tool, at build time, from the tool's one Schema, and does not
// change afterwards.
type Args struct {
	schema *Schema
	bound  []string // arguments the server sets from the caller; a client cannot pass them
	fill   []fill   // top-level arguments with a default or of type number
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

// Names returns the names of the arguments a client passes, sorted.
func (a *Args) Names() []string {
	props, _ := a.schema.Doc()["properties"].(map[string]any)
	return slices.Sorted(maps.Keys(props))
}

// fills reads, once, what Decode applies on every call.
func fills(s *Schema) []fill {
	props, _ := s.Doc()["properties"].(map[string]any)
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

// Decode parses, validates and completes a call's arguments, going
// forward through two steps: the decoder and the schema's validator
// (general, validate.go), which say what is wrong; then the defaults and
// the number types the handler expects (complete, fill.go). Every error
// wraps ErrInvalid.
func (a *Args) Decode(raw json.RawMessage) (map[string]any, error) {
	if len(raw) > MaxSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalid, MaxSize)
	}
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage(`{}`) // no arguments: checked as none
	}
	args, err := a.general(raw)
	if err != nil {
		return nil, err
	}
	a.complete(args)
	return args, nil
}
