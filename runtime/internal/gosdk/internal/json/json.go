// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// Package json provides internal JSON utilities.

package json

import (
	"bytes"
	stdjson "encoding/json" // Marshal leaves to it what segmentio would not refuse
	"fmt"
	"io"

	"github.com/segmentio/encoding/json"
)

// defaultMaxDepth is the maximum JSON nesting depth accepted by [Unmarshal].
// Realistic MCP payloads nest only a handful of levels, so 1000 is far more
// than any legitimate message requires while keeping worst-case parse cost
// bounded.
const defaultMaxDepth = 1000

// errMaxDepthExceeded is returned by [Unmarshal] when the input nests deeper than [defaultMaxDepth].
var errMaxDepthExceeded = fmt.Errorf("json: exceeded maximum nesting depth of %d", defaultMaxDepth)

type Decoder struct {
	dec *json.Decoder
}

func NewDecoder(r io.Reader) *Decoder {
	dec := json.NewDecoder(r)
	dec.DontMatchCaseInsensitiveStructFields()
	return &Decoder{dec: dec}
}

func (d *Decoder) Decode(v any) error {
	return d.dec.Decode(v)
}

func Unmarshal(data []byte, v any) error {
	if err := checkMaxDepth(data, defaultMaxDepth); err != nil {
		return err
	}
	// Parse data in place, as Decoder.Decode does once it has read a value:
	// a Decoder of its own would copy data into a fresh 32 KiB buffer. Type
	// errors are the same either way; malformed JSON goes to a Decoder, so
	// that it is reported as before (io.EOF, io.ErrUnexpectedEOF).
	_, err := json.Parse(data, v, json.DontMatchCaseInsensitiveStructFields)
	if _, malformed := err.(*json.SyntaxError); !malformed && len(data) > 0 {
		return err
	}
	return NewDecoder(bytes.NewReader(data)).Decode(v)
}

// Marshal is encoding/json's Marshal (HTML escaped, map keys sorted, the
// same bytes) by segmentio's encoder, which takes a map[string]any and the
// values in it without reflecting on each; what it would not refuse as
// encoding/json does goes to encoding/json.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || !json.Valid(b) { // it writes a json.Number as it is: encoding/json says what is wrong
		return stdjson.Marshal(v)
	}
	return b, nil
}

// IsCompact reports whether data is one valid JSON value with no white
// space outside its strings, nested no deeper than encoding/json allows:
// what encoding/json would copy as it is when it compacts a
// json.RawMessage, so that a writer may copy it without that pass.
func IsCompact(data []byte) bool {
	// Nesting beyond encoding/json's 10,000 takes more bytes than that.
	if !json.Valid(data) || len(data) > 10000 && checkMaxDepth(data, 10000) != nil {
		return false
	}
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"': // skip the string: to the first quote not escaped
			for {
				i += bytes.IndexByte(data[i+1:], '"') + 1
				k := i - 1
				for data[k] == '\\' {
					k--
				}
				if (i-k)%2 == 1 { // an even number of backslashes before it
					break
				}
			}
		}
	}
	return true
}

// checkMaxDepth scans data once and reports [errMaxDepthExceeded] if the
// nesting of JSON objects and arrays exceeds maxDepth. It is a lightweight pass which
// tracks '{' and '[' against '}' and ']' while skipping over the contents of strings.
func checkMaxDepth(data []byte, maxDepth int) error {
	var (
		depth    int
		inString bool
		escaped  bool
	)
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}

		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return errMaxDepthExceeded
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
