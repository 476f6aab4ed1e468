package input

import (
	"cmp"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// quick decodes and checks arguments in one pass, if the schema allows it:
// ok means they are valid, and args are what the general way would have
// made of them (numbers typed). It never holds a bound argument: those are
// not properties of the schema, and a property the checker does not know
// sends the call the general way.
func (a *Args) quick(raw []byte) (args map[string]any, ok bool) {
	a.checkOnce.Do(func() { a.check = newArgCheck(a.schema.Doc()) })
	if a.check == nil {
		return nil, false
	}
	return a.check.decode(raw)
}

// decode decodes and checks the JSON of a call's arguments in one pass. It
// returns ok only when the arguments are certainly valid; the map then
// holds what decodeNumbers, the validator and handlers.Numbers would have
// left: strings, bools, int64 or float64 numbers, []any. Anything unusual
// (a property it does not know, a key given twice, a null, a number it
// cannot compare for sure, text after the object) makes it give up.
func (c *argCheck) decode(raw []byte) (map[string]any, bool) {
	s := argScanner{data: raw}
	s.space()
	if !s.byte('{') {
		return nil, false
	}
	args := make(map[string]any, len(c.props))
	var seen uint64
	s.space()
	for !s.byte('}') {
		if len(args) > 0 && !(s.byte(',') && s.space()) {
			return nil, false
		}
		i, ok := c.member(&s)
		if !ok || seen&(1<<i) != 0 {
			return nil, false
		}
		seen |= 1 << i
		p := &c.props[i]
		if args[p.name], ok = p.value(&s); !ok {
			return nil, false
		}
		s.space()
	}
	s.space()
	return args, s.pos == len(s.data) && seen&c.required == c.required
}

// member reads a key and its colon, and returns the key's property.
func (c *argCheck) member(s *argScanner) (int, bool) {
	body, plain, ok := s.quoted()
	if !ok {
		return 0, false
	}
	var i int
	var known bool
	if plain {
		i, known = c.names[string(body[1:len(body)-1])] // no copy: the compiler sees to it
	} else {
		key, ok := unquote(body)
		i, known = c.names[key]
		known = known && ok
	}
	s.space()
	if !known || !s.byte(':') {
		return 0, false
	}
	s.space()
	return i, true
}

// value reads and checks one value.
func (vc *valueCheck) value(s *argScanner) (any, bool) {
	switch vc.typ {
	case "string":
		v, ok := s.str()
		return v, ok && vc.stringHolds(v)
	case "boolean":
		v, ok := s.boolean()
		return v, ok && (vc.enum == nil || enumHas(vc.enum, v, argNumber{}))
	case "array":
		return vc.array(s)
	}
	lit, integer, ok := s.number()
	if !ok || vc.typ == "integer" && !integer {
		return nil, false
	}
	n := parseNumber(lit, integer)
	return n.value(), (vc.typ == "number" || n.isInt) && vc.numberHolds(n)
}

func (vc *valueCheck) stringHolds(v string) bool {
	if vc.minLength >= 0 || vc.maxLength >= 0 {
		n := utf8.RuneCountInString(v)
		if n < vc.minLength || vc.maxLength >= 0 && n > vc.maxLength {
			return false
		}
	}
	return (vc.pattern == nil || vc.pattern.MatchString(v)) && (vc.enum == nil || enumHas(vc.enum, v, argNumber{}))
}

func (vc *valueCheck) numberHolds(n argNumber) bool {
	for _, b := range vc.bounds {
		if !b.holds(n) {
			return false
		}
	}
	return vc.enum == nil || enumHas(vc.enum, n.value(), n)
}

// array reads an array of values checked by vc.items.
func (vc *valueCheck) array(s *argScanner) (any, bool) {
	if !s.byte('[') {
		return nil, false
	}
	out := []any{} // never nil, as encoding/json decodes []
	s.space()
	for !s.byte(']') {
		if len(out) > 0 && !(s.byte(',') && s.space()) {
			return nil, false
		}
		v, ok := vc.items.value(s)
		if !ok {
			return nil, false
		}
		out = append(out, v)
		s.space()
	}
	n := len(out)
	return out, n >= vc.minItems && (vc.maxItems < 0 || n <= vc.maxItems)
}

// argScanner reads the JSON grammar, byte by byte.
type argScanner struct {
	data []byte
	pos  int
}

// space skips JSON white space; it returns true, to chain.
func (s *argScanner) space() bool {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return true
		}
	}
	return true
}

// byte consumes c if it comes next.
func (s *argScanner) byte(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *argScanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	return false
}

func (s *argScanner) boolean() (bool, bool) {
	if s.literal("true") {
		return true, true
	}
	return false, s.literal("false")
}

// str reads a string.
func (s *argScanner) str() (string, bool) {
	body, plain, ok := s.quoted()
	if !ok {
		return "", false
	}
	if plain {
		return string(body[1 : len(body)-1]), true
	}
	return unquote(body)
}

// unquote decodes a string with escapes or invalid UTF-8 as encoding/json
// does, for it is encoding/json.
func unquote(quoted []byte) (string, bool) {
	var v string
	err := json.Unmarshal(quoted, &v)
	return v, err == nil
}

// quoted reads a string and returns it with its quotes. It is plain when it
// has no escapes and is valid UTF-8: encoding/json copies such a string as
// it is.
func (s *argScanner) quoted() (body []byte, plain bool, ok bool) {
	start := s.pos
	if !s.byte('"') {
		return nil, false, false
	}
	plain = true
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			body = s.data[start:s.pos]
			return body, plain && utf8.Valid(body), true
		case c < 0x20:
			return nil, false, false // a control character must be escaped
		case c == '\\':
			plain = false
			s.pos++ // the escaped byte cannot end the string
		}
		s.pos++
	}
	return nil, false, false
}

// number reads the text of a number, checking its grammar, and says
// whether it is an integer (no fraction or exponent). It refuses very long
// numbers and exponents of more than four digits, which the validator's
// rationals cannot always represent.
func (s *argScanner) number() (lit []byte, integer bool, ok bool) {
	start := s.pos
	s.byte('-')
	if !s.byte('0') && s.digits() == 0 {
		return nil, false, false
	}
	integer = true
	if s.byte('.') {
		integer = false
		if s.digits() == 0 {
			return nil, false, false
		}
	}
	if s.byte('e') || s.byte('E') {
		integer = false
		if !s.byte('+') {
			s.byte('-')
		}
		if n := s.digits(); n == 0 || n > 4 {
			return nil, false, false
		}
	}
	lit = s.data[start:s.pos]
	return lit, integer, len(lit) <= 64
}

// digits skips decimal digits and returns how many.
func (s *argScanner) digits() int {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}

// argNumber is a JSON number as decodeArgs types it (handlers.Numbers): the
// int64 its text parses to when it is an integer that fits, else the
// float64 nearest to it (±Inf beyond the range).
type argNumber struct {
	i     int64
	f     float64 // float64(i) for an integer: also the nearest
	isInt bool
}

func (n argNumber) value() any {
	if n.isInt {
		return n.i
	}
	return n.f
}

// parseNumber types the text of a JSON number, which scanNumber found
// well formed. Integers of up to 18 digits, which always fit, are parsed
// here without the copy strconv needs.
func parseNumber(lit []byte, integer bool) argNumber {
	if digits := len(lit) - boolInt(lit[0] == '-'); integer && digits <= 18 {
		var i int64
		for _, c := range lit[len(lit)-digits:] {
			i = i*10 + int64(c-'0')
		}
		if lit[0] == '-' {
			i = -i
		}
		return argNumber{i: i, f: float64(i), isInt: true}
	}
	s := string(lit)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return argNumber{i: i, f: float64(i), isInt: true}
	}
	f, _ := strconv.ParseFloat(s, 64) // ±Inf and a range error beyond, as Numbers keeps it
	return argNumber{f: f}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// compare orders a number against another, exactly, as the validator does
// with rationals. Two integers compare exactly; otherwise the order of the
// nearest floats is the order of the numbers whenever the floats differ
// (rounding to nearest never reverses an order), and sure is false when
// they are equal.
func (n argNumber) compare(m argNumber) (c int, sure bool) {
	if n.isInt && m.isInt {
		return cmp.Compare(n.i, m.i), true
	}
	return cmp.Compare(n.f, m.f), n.f != m.f
}

// holds reports whether n certainly satisfies the bound.
func (b bound) holds(n argNumber) bool {
	c, sure := n.compare(b.limit)
	switch b.keyword {
	case "minimum":
		return sure && c >= 0
	case "maximum":
		return sure && c <= 0
	case "exclusiveMinimum":
		return sure && c > 0
	}
	return sure && c < 0 // exclusiveMaximum
}

// enumHas reports whether an enum certainly holds v (a string, bool or
// number as decoded by argCheck): numbers match only when both are integers
// (1 and 1.0 are equal to the validator; the check leaves that to it).
func enumHas(enum []any, v any, n argNumber) bool {
	for _, e := range enum {
		switch e := e.(type) {
		case string, bool:
			if e == v {
				return true
			}
		case int64:
			if n.isInt && e == n.i {
				return true
			}
		}
	}
	return false
}
