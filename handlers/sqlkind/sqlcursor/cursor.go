// Package sqlcursor makes and reads the cursors of paged SQL tools: the
// nextCursor a paged tool returns and the model passes back.
package sqlcursor

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// MaxLen bounds the length of a cursor the model passes back.
const MaxLen = 4096

// A cursor is base64url(payload) "." base64url(sum): payload is JSON,
// {"o": offset} or {"k": [key values]}, and sum is an HMAC of the payload
// keyed by the paged query and the call's other parameters. A cursor from
// another tool, from a call with other arguments, or changed on the way,
// is refused; one made by hand could only move within the rows the query
// selects, as its values are bound, never spliced.
type Payload struct {
	Offset *int64 `json:"o,omitempty"`
	Keys   []Key  `json:"k,omitempty"`
}

// Key is one key value with its type: i (integer, as text), f
// (float, as text), s (text), t (time, RFC 3339), b (bytes, base64), z
// (boolean).
type Key [2]any

// ErrCursor is the message of a cursor that is not one of this tool's.
var ErrCursor = errors.New("cursor: not a nextCursor of this tool with these arguments; pass nextCursor back " +
	"as it was, with the arguments of the call that returned it, or leave cursor out for the first page")

// A Codec makes and checks the cursors of one paged query: Salt keys
// their HMAC (the dialect, the keyset and the query text).
type Codec struct {
	Salt []byte
}

// sum is the cursor's HMAC over its payload.
func (c Codec) sum(digest, payload []byte) []byte {
	m := hmac.New(sha256.New, c.Salt)
	m.Write(digest)
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:12]
}

// Digest sums up the values bound to the query's own parameters: a cursor
// is good only for a call with the same ones.
func Digest(bound []any) []byte {
	b, err := json.Marshal(bound)
	if err != nil {
		b = fmt.Appendf(nil, "%#v", bound)
	}
	s := sha256.Sum256(b)
	return s[:]
}

// Encode makes the cursor of payload p for a call whose parameters have
// the digest.
func (c Codec) Encode(digest []byte, p Payload) string {
	payload, _ := json.Marshal(p) // of strings, numbers and booleans
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(c.sum(digest, payload))
}

// Decode checks a cursor and returns its payload: ErrCursor unless c made
// it for a call whose parameters have the digest.
func (c Codec) Decode(digest []byte, cursor string) (*Payload, error) {
	if len(cursor) > MaxLen {
		return nil, fmt.Errorf("cursor: %d bytes is longer than any nextCursor (%d at most); pass nextCursor back as it was",
			len(cursor), MaxLen)
	}
	enc := base64.RawURLEncoding.Strict() // one spelling per cursor
	a, b, ok := strings.Cut(cursor, ".")
	payload, err1 := enc.DecodeString(a)
	sum, err2 := enc.DecodeString(b)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sum, c.sum(digest, payload)) {
		return nil, ErrCursor
	}
	d := json.NewDecoder(bytes.NewReader(payload))
	d.DisallowUnknownFields()
	var p Payload
	if err := d.Decode(&p); err != nil {
		return nil, ErrCursor
	}
	return &p, nil
}

// KeyOf records a raw key value of the last row of a page; false for a
// NULL.
func KeyOf(v any) (Key, bool) {
	switch v := v.(type) {
	case nil:
		return Key{}, false
	case int64:
		return Key{"i", strconv.FormatInt(v, 10)}, true
	case int32:
		return Key{"i", strconv.FormatInt(int64(v), 10)}, true
	case int:
		return Key{"i", strconv.Itoa(v)}, true
	case uint64:
		return Key{"i", strconv.FormatUint(v, 10)}, true
	case float64:
		return Key{"f", strconv.FormatFloat(v, 'g', -1, 64)}, true
	case float32:
		return Key{"f", strconv.FormatFloat(float64(v), 'g', -1, 32)}, true
	case bool:
		return Key{"z", v}, true
	case time.Time:
		return Key{"t", v.Format(time.RFC3339Nano)}, true
	case []byte:
		return Key{"b", base64.StdEncoding.EncodeToString(v)}, true
	case string:
		return Key{"s", v}, true
	case fmt.Stringer:
		return Key{"s", v.String()}, true
	}
	return Key{"s", fmt.Sprint(v)}, true
}

// Value is the Go value bound for a key.
func (k Key) Value() (any, error) {
	tag, _ := k[0].(string)
	switch v := k[1].(type) {
	case bool:
		if tag == "z" {
			return v, nil
		}
	case string:
		switch tag {
		case "i":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				return n, nil
			}
			if n, err := strconv.ParseUint(v, 10, 64); err == nil {
				return n, nil
			}
		case "f":
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return f, nil
			}
		case "s":
			return v, nil
		case "t":
			if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
				return t, nil
			}
		case "b":
			if b, err := base64.StdEncoding.DecodeString(v); err == nil {
				return b, nil
			}
		}
	}
	return nil, ErrCursor
}
