package sqlkind

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

// maxCursor bounds the length of a cursor the model passes back.
const maxCursor = 4096

// A cursor is base64url(payload) "." base64url(sum): payload is JSON,
// {"o": offset} or {"k": [key values]}, and sum is an HMAC of the payload
// keyed by the paged query and the call's other parameters. A cursor from
// another tool, from a call with other arguments, or changed on the way,
// is refused; one made by hand could only move within the rows the query
// selects, as its values are bound, never spliced.
type cursorPayload struct {
	Offset *int64      `json:"o,omitempty"`
	Keys   []cursorKey `json:"k,omitempty"`
}

// cursorKey is one key value with its type: i (integer, as text), f
// (float, as text), s (text), t (time, RFC 3339), b (bytes, base64), z
// (boolean).
type cursorKey [2]any

// errCursor is the message of a cursor that is not one of this tool's.
var errCursor = errors.New("cursor: not a nextCursor of this tool with these arguments; pass nextCursor back " +
	"as it was, with the arguments of the call that returned it, or leave cursor out for the first page")

// sum is the cursor's HMAC over its payload.
func (p *pager) sum(digest, payload []byte) []byte {
	m := hmac.New(sha256.New, p.salt)
	m.Write(digest)
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:12]
}

// digest sums up the values bound to the query's own parameters.
func digest(bound []any) []byte {
	b, err := json.Marshal(bound)
	if err != nil {
		b = fmt.Appendf(nil, "%#v", bound)
	}
	s := sha256.Sum256(b)
	return s[:]
}

func (p *pager) encode(digest []byte, c cursorPayload) string {
	payload, _ := json.Marshal(c) // of strings, numbers and booleans
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(p.sum(digest, payload))
}

// decode checks a cursor and returns its payload.
func (p *pager) decode(digest []byte, cursor string) (*cursorPayload, error) {
	if len(cursor) > maxCursor {
		return nil, fmt.Errorf("cursor: %d bytes is longer than any nextCursor (%d at most); pass nextCursor back as it was",
			len(cursor), maxCursor)
	}
	enc := base64.RawURLEncoding.Strict() // one spelling per cursor
	a, b, ok := strings.Cut(cursor, ".")
	payload, err1 := enc.DecodeString(a)
	sum, err2 := enc.DecodeString(b)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(sum, p.sum(digest, payload)) {
		return nil, errCursor
	}
	d := json.NewDecoder(bytes.NewReader(payload))
	d.DisallowUnknownFields()
	var c cursorPayload
	if err := d.Decode(&c); err != nil {
		return nil, errCursor
	}
	switch {
	case p.keys == nil && (c.Offset == nil || *c.Offset < 0 || c.Keys != nil),
		p.keys != nil && (c.Offset != nil || len(c.Keys) != len(p.keys)):
		return nil, errCursor
	}
	return &c, nil
}

// keyOf records a raw key value of the last row of a page.
func keyOf(v any) (cursorKey, bool) {
	switch v := v.(type) {
	case nil:
		return cursorKey{}, false
	case int64:
		return cursorKey{"i", strconv.FormatInt(v, 10)}, true
	case int32:
		return cursorKey{"i", strconv.FormatInt(int64(v), 10)}, true
	case int:
		return cursorKey{"i", strconv.Itoa(v)}, true
	case uint64:
		return cursorKey{"i", strconv.FormatUint(v, 10)}, true
	case float64:
		return cursorKey{"f", strconv.FormatFloat(v, 'g', -1, 64)}, true
	case float32:
		return cursorKey{"f", strconv.FormatFloat(float64(v), 'g', -1, 32)}, true
	case bool:
		return cursorKey{"z", v}, true
	case time.Time:
		return cursorKey{"t", v.Format(time.RFC3339Nano)}, true
	case []byte:
		return cursorKey{"b", base64.StdEncoding.EncodeToString(v)}, true
	case string:
		return cursorKey{"s", v}, true
	case fmt.Stringer:
		return cursorKey{"s", v.String()}, true
	}
	return cursorKey{"s", fmt.Sprint(v)}, true
}

// value is the Go value bound for a key.
func (k cursorKey) value() (any, error) {
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
	return nil, errCursor
}
