package runtime

import (
	"cmp"
	"strconv"
)

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

// bound is one of minimum, maximum, exclusiveMinimum, exclusiveMaximum.
type bound struct {
	keyword string
	limit   argNumber
}

// newBound reads a bound as decodeJSON decoded it: an int64 is exact, a
// float64 is the nearest to the bound, which is what compare needs.
func newBound(keyword string, v any) (bound, bool) {
	switch v := v.(type) {
	case int64:
		return bound{keyword, argNumber{i: v, f: float64(v), isInt: true}}, true
	case float64:
		return bound{keyword, argNumber{f: v}}, true
	}
	return bound{}, false
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
