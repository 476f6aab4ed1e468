// Package reqstate signs and checks the requestState a 2026-07-28 client
// carries between the rounds of a call that asked it for input.
package reqstate

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"
)

// A 2026-07-28 client is asked for input by answering its call with the
// questions and a requestState; it calls again with the answers and the
// state. The state is the call's progress: which steps ran, and the results
// of the questions answered in earlier rounds. The client holds it, so it is
// signed (HMAC-SHA256) and checked on every retry:
//
//   - tampering: any change to the state, or a state signed with another
//     key, is refused;
//   - binding: a state is valid only for the tool or prompt it came from,
//     with the same arguments, for the same authenticated caller (when
//     there is one), and until it expires;
//   - replay: all the states of one call share a chain id; once a retry
//     completes the call (its handler ran), the chain is spent, and a retry
//     with any of its states is refused until they expire. A retry that
//     only asks again (an answer missing) does not spend it; one that runs
//     tools the client's model called spends its own state. Spent chains
//     are remembered by the process: replicas sharing a key do not share
//     them, which the short expiry bounds.
//
// State is that progress, as the client carries it.
type State struct {
	Kind    string                     `json:"k"` // "tool" or "prompt"
	Name    string                     `json:"n"`
	Args    []byte                     `json:"a"`           // SHA-256 of the arguments
	Caller  string                     `json:"c,omitempty"` // the caller's subject
	Done    int                        `json:"d"`           // steps before this one have run
	Answers map[string]json.RawMessage `json:"r,omitempty"` // step results, by input request key
	// Pending is what a step that takes several rounds keeps between them,
	// by its key: a URL elicitation's id, a sampling conversation so far.
	Pending map[string]json.RawMessage `json:"p,omitempty"`
	Chain   string                     `json:"i"`
	Expires int64                      `json:"e"` // Unix seconds
}

// DefaultTTL is how long a request state stays valid.
const DefaultTTL = 10 * time.Minute

// ErrBad is the refusal of a request state that fails a check; the
// client learns nothing more.
var ErrBad = errors.New("invalid requestState: it was altered, has expired, was used already, or belongs to another call")

// Signer signs and checks request states.
type Signer struct {
	key []byte
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	spent map[string]int64 // chain id → expiry
}

// NewSigner returns a signer with key (a random one when empty) whose
// states expire after ttl (DefaultTTL when not positive).
func NewSigner(key []byte, ttl time.Duration) *Signer {
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Signer{key: key, ttl: ttl, now: time.Now, spent: map[string]int64{}}
}

// Sign encodes st, stamping its expiry, as base64url(JSON).base64url(MAC).
func (s *Signer) Sign(st *State) string {
	if st.Chain == "" {
		var id [16]byte
		_, _ = rand.Read(id[:])
		st.Chain = base64.RawURLEncoding.EncodeToString(id[:])
	}
	st.Expires = s.now().Add(s.ttl).Unix()
	payload, _ := json.Marshal(st)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(s.mac(payload))
}

func (s *Signer) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return m.Sum(nil)
}

// Open checks a state from a retry against the call it comes with.
func (s *Signer) Open(token, kind, name string, args []byte, caller string) (*State, error) {
	enc := base64.RawURLEncoding
	p, m, ok := strings.Cut(token, ".")
	if !ok {
		return nil, ErrBad
	}
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(m)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.mac(payload)) {
		return nil, ErrBad
	}
	var st State
	if json.Unmarshal(payload, &st) != nil {
		return nil, ErrBad
	}
	if st.Kind != kind || st.Name != name || !hmac.Equal(st.Args, args) || st.Caller != caller ||
		s.now().Unix() > st.Expires || s.isSpent(st.Chain) || s.isSpent(onceKey(m)) {
		return nil, ErrBad
	}
	return &st, nil
}

func (s *Signer) isSpent(chain string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.spent[chain]
	return ok
}

// Claim spends the chain of a state whose call completes; false if another
// retry spent it first.
func (s *Signer) Claim(st *State) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, spent := s.spent[st.Chain]; spent {
		return false
	}
	now := s.now().Unix()
	for c, exp := range s.spent {
		if exp < now {
			delete(s.spent, c)
		}
	}
	s.spent[st.Chain] = st.Expires
	return true
}

// SpendOnce spends one state, not its chain: a round that did something
// that must not happen twice (the tool calls of a sampling conversation)
// refuses a retry with the same state again. False if it was spent.
func (s *Signer) SpendOnce(token string, expires int64) bool {
	_, m, _ := strings.Cut(token, ".")
	return s.Claim(&State{Chain: onceKey(m), Expires: expires})
}

// onceKey names a single state among the spent ones: by its MAC.
func onceKey(mac string) string { return "state:" + mac }

// ArgsDigest is the SHA-256 of decoded arguments, re-encoded: the same for
// the same arguments whatever their order on the wire.
func ArgsDigest(args any) []byte {
	b, _ := json.Marshal(args)
	sum := sha256.Sum256(b)
	return sum[:]
}
