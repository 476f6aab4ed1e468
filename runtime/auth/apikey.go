package auth

import (
	"crypto/sha256"
	"crypto/subtle"
)

// apiKey is one static key, kept as its SHA-256 only.
type apiKey struct {
	name   string
	hash   [32]byte
	scopes []string
}

// apiKeys matches a credential against the static keys. Every key is
// compared, in constant time, whatever matches: the time taken says
// nothing about how close a guess came.
type apiKeys []apiKey

func (ks apiKeys) match(cred string) *Caller {
	h := sha256.Sum256([]byte(cred))
	found := -1
	for i := range ks {
		if subtle.ConstantTimeCompare(h[:], ks[i].hash[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return nil
	}
	k := ks[found]
	return NewCaller(Caller{Subject: "key:" + k.name, KeyName: k.name, Scopes: k.scopes}, "")
}
