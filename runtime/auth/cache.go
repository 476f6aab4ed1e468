package auth

import (
	"crypto/sha256"
	"sync"
	"time"
	"unsafe"
)

// tokenCacheMax bounds the entries of a token cache; when full, expired
// entries go, and if none has expired, all of them.
const tokenCacheMax = 10000

// tokenCache remembers verdicts on credentials, by their SHA-256, so that a
// client sending the same token on every request has it checked once:
// verifying a signature costs more than the rest of a small tools/call.
type tokenCache struct {
	mu sync.Mutex
	m  map[[32]byte]verdict
}

// verdict is what was found about a credential, valid until `until`.
type verdict struct {
	caller *Caller // nil: refused
	exp    time.Time
	until  time.Time
}

func newTokenCache() *tokenCache { return &tokenCache{m: map[[32]byte]verdict{}} }

// cacheKey is a credential's SHA-256. It reads the string's bytes in place:
// []byte(cred) would copy the token (often a kilobyte) on every request,
// and Sum256 only reads its input.
func cacheKey(cred string) [32]byte {
	return sha256.Sum256(unsafe.Slice(unsafe.StringData(cred), len(cred)))
}

// get returns the verdict on key, if one is still valid at now.
func (c *tokenCache) get(key [32]byte, now time.Time) (verdict, bool) {
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if !ok || !now.Before(v.until) {
		return verdict{}, false
	}
	return v, true
}

func (c *tokenCache) put(key [32]byte, v verdict, now time.Time) {
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
	c.m[key] = v
}
