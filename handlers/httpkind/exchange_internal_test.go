package httpkind

import (
	"testing"
	"time"
)

// TestExchangedExpiry: a cached token is used until shortly before it
// expires, and a full cache drops the expired ones first.
func TestExchangedExpiry(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	x := &exchanger{now: func() time.Time { return now }, cache: map[string]exchanged{}}
	x.store("ann", "tok", 5*time.Minute)
	if tok, ok := x.cached("ann"); !ok || tok != "tok" {
		t.Fatalf("cached = %q %v", tok, ok)
	}
	now = now.Add(5*time.Minute - expirySkew - time.Second)
	if _, ok := x.cached("ann"); !ok {
		t.Error("dropped before its time")
	}
	now = now.Add(2 * time.Second)
	if _, ok := x.cached("ann"); ok {
		t.Error("used within the skew of its expiry")
	}
	for i := range maxExchanged {
		x.store(string(rune(i)), "t", time.Minute)
	}
	now = now.Add(time.Hour)
	x.store("fresh", "t", time.Minute)
	if len(x.cache) != 1 {
		t.Errorf("%d entries after a full cache of expired tokens, want 1", len(x.cache))
	}
}
