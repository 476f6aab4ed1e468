package transport

import (
	"slices"
	"testing"
	"time"
)

// TestUnconfirmedExpiry: sessions past their lifetime without a request
// go; at the cap the oldest unconfirmed one goes too; confirmed ones never.
func TestUnconfirmedExpiry(t *testing.T) {
	u := newUnconfirmed()
	u.add("old")
	u.add("older")
	u.add("young")
	u.add("used")
	u.confirm("used")
	u.opened["old"] = time.Now().Add(-unconfirmedLifetime - time.Second)
	u.opened["older"] = time.Now().Add(-unconfirmedLifetime - time.Minute)
	u.opened["young"] = time.Now().Add(-time.Second)
	got := u.expired(false)
	slices.Sort(got)
	if !slices.Equal(got, []string{"old", "older"}) {
		t.Errorf("expired %v, want old and older", got)
	}
	if got := u.expired(false); len(got) != 0 {
		t.Errorf("again: %v, want none", got)
	}
	u.add("younger")
	if got := u.expired(true); !slices.Equal(got, []string{"young"}) {
		t.Errorf("room wanted: %v, want the oldest unconfirmed (young)", got)
	}
	if got := u.expired(true); !slices.Equal(got, []string{"younger"}) || len(u.opened) != 0 {
		t.Errorf("room wanted again: %v, left %v", got, u.opened)
	}
}
