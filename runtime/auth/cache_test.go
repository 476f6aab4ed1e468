package auth

import (
	"hash/maphash"
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
