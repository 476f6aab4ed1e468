package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"hash/maphash"
	"sync"
	"time"
	"unsafe"
)

// tokenCacheMax bounds the entries of a token cache; when full, expired
// entries go, and if none has expired, all of them.
const tokenCacheMax = 10000

// tokenCache remembers verdicts on credentials, so that a client sending
// the same token on every request has it checked once: verifying a
// signature costs more than the rest of a small tools/call.
//
// Entries are found by a seeded 64-bit hash of the credential, which costs
// a kilobyte-long token a few hundred instructions where its SHA-256 cost
// about 12,000, more than all the rest of the guard's work. The hash only
// finds an entry: an accepted credential is then compared in full, in
// constant time, with the one kept (the caller holds that token anyway), so
// that two credentials hashing alike can never share a verdict. A refused
// credential, which may be anyone's and as long as MaxCredential, is kept
// only as its SHA-256, computed when a request presents a credential whose
// hash finds a refusal.
type tokenCache struct {
	seed maphash.Seed
	mu   sync.Mutex
	m    map[uint64]verdict
}

// verdict is what was found about a credential, valid until `until`.
type verdict struct {
	caller *Caller // nil: refused
	exp    time.Time
	until  time.Time
	cred   string   // the credential, when accepted
	digest [32]byte // its SHA-256, when refused
}

func newTokenCache() *tokenCache {
	return &tokenCache{seed: maphash.MakeSeed(), m: map[uint64]verdict{}}
}

// credentialDigest is a credential's SHA-256. It reads the string's bytes
// in place: []byte(cred) would copy the token (often a kilobyte), and
// Sum256 only reads its input.
func credentialDigest(cred string) [32]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(cred), len(cred)))
}

// isFor reports whether v is the verdict on cred, in time independent of
// how much of cred matches.
func (v *verdict) isFor(cred string) bool {
	if v.caller != nil {
		return sameCredential(v.cred, cred)
	}
	d := credentialDigest(cred)
	return subtle.ConstantTimeCompare(d[:], v.digest[:]) == 1
}

// sameCredential reports whether a and b are equal, in time that depends
// on their lengths only. It compares eight bytes at a time: a
// kilobyte-long token costs a tenth of what subtle.ConstantTimeCompare's
// byte loop does. The loops test both lengths, equal as they are, so that
// the compiler can drop its own bounds checks from them.
func sameCredential(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	x := unsafe.Slice(unsafe.StringData(a), len(a))
	y := unsafe.Slice(unsafe.StringData(b), len(a))
	var diff uint64
	i := 0
	for ; i+8 <= len(x) && i+8 <= len(y); i += 8 {
		diff |= binary.LittleEndian.Uint64(x[i:i+8]) ^ binary.LittleEndian.Uint64(y[i:i+8])
	}
	for ; i < len(x) && i < len(y); i++ {
		diff |= uint64(x[i] ^ y[i])
	}
	return diff == 0
}

// get returns the verdict on cred, if one is still valid at now.
func (c *tokenCache) get(cred string, now time.Time) (verdict, bool) {
	h := maphash.String(c.seed, cred)
	c.mu.Lock()
	v, ok := c.m[h]
	c.mu.Unlock()
	if !ok || !now.Before(v.until) || !v.isFor(cred) {
		return verdict{}, false
	}
	return v, true
}

func (c *tokenCache) put(cred string, v verdict, now time.Time) {
	if v.caller != nil {
		v.cred = cred
	} else {
		v.digest = credentialDigest(cred)
	}
	h := maphash.String(c.seed, cred)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= tokenCacheMax {
		for k, old := range c.m {
			if !now.Before(old.until) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= tokenCacheMax {
			clear(c.m)
		}
	}
	c.m[h] = v
}
