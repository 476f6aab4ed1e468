package reqstate

import (
	"testing"
	"time"
)

// TestStateSigner checks the state's expiry and bindings on their own.
func TestStateSigner(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	s := NewSigner([]byte("0123456789abcdef0123456789abcdef"), time.Minute)
	s.now = func() time.Time { return now }
	digest := ArgsDigest(map[string]any{"a": 1})
	token := s.Sign(&State{Kind: "tool", Name: "t", Args: digest, Caller: "alice"})
	if _, err := s.Open(token, "tool", "t", ArgsDigest(map[string]any{"a": 1}), "alice"); err != nil {
		t.Fatalf("a fresh state: %v", err)
	}
	for _, tt := range []struct {
		name, kind, tool, caller string
		args                     []byte
	}{
		{"another tool", "tool", "u", "alice", digest},
		{"a prompt of that name", "prompt", "t", "alice", digest},
		{"other arguments", "tool", "t", "alice", ArgsDigest(map[string]any{"a": 2})},
		{"another caller", "tool", "t", "bob", digest},
	} {
		if _, err := s.Open(token, tt.kind, tt.tool, tt.args, tt.caller); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	other := NewSigner([]byte("another key, another key, another"), time.Minute)
	if _, err := other.Open(token, "tool", "t", digest, "alice"); err == nil {
		t.Error("a state signed with another key was accepted")
	}
	now = now.Add(61 * time.Second)
	if _, err := s.Open(token, "tool", "t", digest, "alice"); err == nil {
		t.Error("an expired state was accepted")
	}
}
