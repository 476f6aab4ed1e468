package auth

import (
	"errors"
	"net/http"
	"strings"
)

// MaxCredential is the longest credential accepted in an Authorization
// header. Real access tokens stay far below it; anything longer is refused
// before any parsing or verification.
const MaxCredential = 16 << 10

// Errors of BearerCredential.
var (
	// ErrNoCredential: no Authorization header, or another scheme than
	// Bearer. The answer is a 401 challenge without an error code.
	ErrNoCredential = errors.New("no bearer credential")
	// ErrMalformed: several Authorization headers, an empty or oversized
	// credential, or characters a bearer credential cannot hold. The
	// answer is 400 invalid_request.
	ErrMalformed = errors.New("malformed authorization header")
)

// BearerCredential returns the credential of a request's
// `Authorization: Bearer CREDENTIAL` header. The scheme is matched without
// regard to case (RFC 7235 §2.1), so `bearer` is accepted too. The
// credential must be an RFC 6750 b64token: letters, digits and
// -._~+/ followed by optional '=' padding.
func BearerCredential(h http.Header) (string, error) {
	values := h.Values("Authorization")
	switch {
	case len(values) == 0:
		return "", ErrNoCredential
	case len(values) > 1:
		return "", ErrMalformed
	}
	v := values[0]
	if len(v) > MaxCredential+len("Bearer ") {
		return "", ErrMalformed
	}
	scheme, cred, _ := strings.Cut(v, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", ErrNoCredential
	}
	cred = strings.TrimLeft(cred, " ")
	if !isB64Token(cred) {
		return "", ErrMalformed
	}
	return cred, nil
}

// b64TokenChar marks the characters of a b64token before its padding.
var b64TokenChar = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", byte(c)) >= 0
	}
	return t
}()

// isB64Token reports whether s is a non-empty RFC 6750 b64token.
func isB64Token(s string) bool {
	if s == "" || len(s) > MaxCredential {
		return false
	}
	i := 0
	for i < len(s) && b64TokenChar[s[i]] {
		i++
	}
	if i == 0 {
		return false
	}
	for ; i < len(s); i++ {
		if s[i] != '=' {
			return false
		}
	}
	return true
}
