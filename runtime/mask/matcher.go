package mask

import "strings"

// A matcher masks secrets on the tools/call path in one pass over a text.
// Most texts hold no secret; a strings.Replacer over every form of every
// secret spends time and two allocations on each text even then. A
// matcher checks the four bytes at each position against a bitmap of the
// forms' first four bytes, compares the few forms that start with them,
// and allocates only when it replaces something (BenchmarkMask).
type matcher struct {
	// heads holds the forms by their first four bytes, longest first;
	// bits has a bit set for the hash of each of those heads.
	heads map[uint32][]string
	bits  [1 << 16 / 64]uint64
}

// newMatcher makes a matcher for forms, sorted longest first. Forms
// shorter than four bytes are left out: values that short are never
// secrets (minSecret), and neither are their forms.
func newMatcher(forms []string) *matcher {
	m := &matcher{heads: map[uint32][]string{}}
	for _, f := range forms {
		if len(f) < 4 {
			continue
		}
		w := word(f)
		m.heads[w] = append(m.heads[w], f)
		h := hash(w)
		m.bits[h/64] |= 1 << (h % 64)
	}
	return m
}

// Replace returns s with every form replaced by ****: at each position
// the longest form found there, from left to right, as strings.Replacer
// does.
func (m *matcher) Replace(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := m.next(s, 0); i >= 0; i = m.next(s, i) {
		f := m.at(s[i:])
		if f == "" {
			i++
			continue
		}
		if done == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[done:i])
		b.WriteString("****")
		i += len(f)
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// next returns the first position from i on whose four bytes are in the
// bitmap, or -1. It reads one byte per position.
func (m *matcher) next(s string, i int) int {
	if i+4 > len(s) {
		return -1
	}
	w := word(s[i:])
	for {
		if h := hash(w); m.bits[h/64]&(1<<(h%64)) != 0 {
			return i
		}
		if i+4 >= len(s) {
			return -1
		}
		w = w>>8 | uint32(s[i+4])<<24
		i++
	}
}

// at returns the longest form s starts with, or "".
func (m *matcher) at(s string) string {
	for _, f := range m.heads[word(s)] {
		if strings.HasPrefix(s, f) {
			return f
		}
	}
	return ""
}

// word is the first four bytes of s, the first in the lowest byte.
func word(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// hash spreads a word over 16 bits (Fibonacci hashing).
func hash(w uint32) uint32 { return w * 0x9E3779B1 >> 16 }
