package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"time"
)

// apiKey is one static key, kept as its SHA-256 only, and the caller it
// stands for.
type apiKey struct {
	hash   [32]byte
	caller *Caller
}

func newAPIKey(name, key string, scopes []string) apiKey {
	c := issuedCaller(Caller{Subject: "key:" + name, KeyName: name, Scopes: scopes}, "", "", time.Time{})
	return apiKey{hash: sha256.Sum256([]byte(key)), caller: c}
}

// apiKeys matches a credential against the static keys. Every key is
// compared, in constant time, whatever matches: the time taken says
// nothing about how close a guess came.
type apiKeys []apiKey

// match returns the caller of the key whose SHA-256 is h, or nil.
func (ks apiKeys) match(h [32]byte) *Caller {
	var found *Caller
	for i := range ks {
		if subtle.ConstantTimeCompare(h[:], ks[i].hash[:]) == 1 {
			found = ks[i].caller
		}
	}
	return found
}
