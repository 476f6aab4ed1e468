package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/santhosh-tekuri/jsonschema/v6"
	sjson "github.com/segmentio/encoding/json"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// A call's arguments are decoded with numbers as json.Number, validated
// against the compiled schema, which says what is wrong, and the numbers
// typed as handlers expect them.

var printer = message.NewPrinter(language.English)

// general decodes arguments with numbers as json.Number, refuses the
// bound ones a client passed, validates the rest against the compiled
// schema, and types the numbers as handlers expect them.
func (a *Args) general(raw []byte) (map[string]any, error) {
	args, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	for _, name := range a.bound {
		if _, ok := args[name]; ok {
			return nil, fmt.Errorf("%w: %s is set by the server from the caller's identity and cannot be passed", ErrInvalid, name)
		}
	}
	if err := a.schema.validateNumbers(args); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	handlers.Numbers(args)
	return args, nil
}

// Validate checks v (decoded with DecodeJSON, or a handler's structured
// result) against the schema. The error names every failing location and
// rule, for a model to correct its call.
func (s *Schema) Validate(v any) error {
	return s.validateNumbers(toValidatable(v))
}

// validateNumbers is validate for a value whose numbers are json.Number
// already, as decodeNumbers leaves them: nothing is copied.
func (s *Schema) validateNumbers(v any) error {
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
func (s *Schema) run(v any) (err error) {
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

// decodeNumbers decodes JSON with numbers left as json.Number. The value
// is parsed in place by segmentio's decoder, which gives what
// encoding/json gives (FuzzDecodeNumbers) without its Decoder's copy of the
// input; JSON it refuses, or nested beyond encoding/json's limit, goes to
// encoding/json, so that the error reads as encoding/json's.
func decodeNumbers(raw []byte) (any, error) {
	var v any
	if rest, err := sjson.Parse(raw, &v, sjson.UseNumber); err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) == 0 &&
		(len(raw) <= 10000 || depthWithin(raw, 10000)) { // deeper nesting takes more bytes
		return v, nil
	}
	v = nil
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(raw[d.InputOffset():], " \t\r\n")) > 0 {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// depthWithin reports whether the objects and arrays of data, valid JSON,
// nest max deep at most: encoding/json refuses deeper values.
func depthWithin(data []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped, inString = c == '\\', c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return false
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return true
}

// decodeObject decodes arguments, which must be an object, with numbers
// left as json.Number for the validator.
func decodeObject(raw []byte) (map[string]any, error) {
	v, err := decodeNumbers(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("arguments must be an object")
	}
	return m, nil
}
