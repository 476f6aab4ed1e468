package auth

import (
	"hash/maphash"
	"strings"
	"testing"
	"time"
)

// TestTokenCacheMatchesWholeCredential: the cache finds entries by a 64-bit
// hash, but a verdict serves only the credential it was reached for, even
// when another credential's hash leads to it.
func TestTokenCacheMatchesWholeCredential(t *testing.T) {
	now := time.Now()
	c := newTokenCache()
	good, refused := "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln", "opaque-refused-token"
	alice := NewCaller(Caller{Subject: "alice"}, good)
	c.put(good, verdict{caller: alice, until: now.Add(time.Minute)}, now)
	c.put(refused, verdict{until: now.Add(time.Minute)}, now)

	if v, ok := c.get(good, now); !ok || v.caller != alice {
		t.Fatalf("the accepted token is not found: %v %v", v, ok)
	}
	if v, ok := c.get(refused, now); !ok || v.caller != nil {
		t.Fatalf("the refused token is not found as refused: %v %v", v, ok)
	}
	for _, other := range []string{good + "x", good[:len(good)-1] + "h", "", refused + "x"} {
		if v, ok := c.get(other, now); ok {
			t.Errorf("%q gets the verdict of another token: %v", other, v)
		}
	}
	if _, ok := c.get(good, now.Add(2*time.Minute)); ok {
		t.Error("an expired verdict is served")
	}

	// Two credentials whose hashes collide: the entry of one is found for
	// the other, and must not serve it.
	for _, stored := range []string{good, refused} {
		forged := "forged-" + stored
		c.mu.Lock()
		c.m[maphash.String(c.seed, forged)] = c.m[maphash.String(c.seed, stored)]
		c.mu.Unlock()
		if v, ok := c.get(forged, now); ok {
			t.Errorf("a colliding credential gets the verdict on %q: %v", stored, v)
		}
	}
}

// TestSameCredential: the word-wise comparison agrees with == on every
// length around the word size and on a difference at every position.
func TestSameCredential(t *testing.T) {
	for n := range 40 {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('a' + i%26)
		}
		if !sameCredential(string(a), string(a)) {
			t.Errorf("length %d: equal strings differ", n)
		}
		if sameCredential(string(a), string(a)+"x") || sameCredential(string(a)+"x", string(a)) {
			t.Errorf("length %d: strings of different lengths are equal", n)
		}
		for i := range a {
			b := append([]byte(nil), a...)
			b[i] ^= 0x01
			if sameCredential(string(a), string(b)) {
				t.Errorf("length %d: a difference at %d is not seen", n, i)
			}
		}
	}
}

// TestIsB64TokenAgreesWithTheGrammar: the unrolled check accepts exactly
// what RFC 6750's b64token grammar does (checked by a plain reading of it).
func TestIsB64TokenAgreesWithTheGrammar(t *testing.T) {
	grammar := func(s string) bool {
		i := 0
		for i < len(s) && strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/", rune(s[i])) {
			i++
		}
		return i > 0 && strings.Trim(s[i:], "=") == ""
	}
	alphabet := "aZ09-._~+/= \x00\xff\"é"
	var cases []string
	for n := range 20 {
		for k := range 60 {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[(i*7+k*13+n)%len(alphabet)]
				if k%3 == 0 {
					b[i] = "abcXYZ019-._~+/"[(i+k)%15]
				}
			}
			if k%5 == 0 && n > 2 {
				b[n-1], b[n-2] = '=', '='
			}
			cases = append(cases, string(b))
		}
	}
	cases = append(cases, "", "=", "==", "a=", "a=b", "abcdefgh=", "abcdefgh", "abcdefg h", "abcdefghi\x00")
	for _, s := range cases {
		if got, want := isB64Token(s), grammar(s); got != want {
			t.Errorf("isB64Token(%q) = %v, the grammar says %v", s, got, want)
		}
	}
}
