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
	cred, err := bearerField(h)
	if err != nil {
		return "", err
	}
	if !isB64Token(cred) {
		return "", ErrMalformed
	}
	return cred, nil
}

// bearerField is BearerCredential without the check of the credential's
// characters, for a caller that knows the credential already.
func bearerField(h http.Header) (string, error) {
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
	return strings.TrimLeft(cred, " "), nil
}

// notB64TokenChar marks the bytes a b64token cannot hold before its
// padding.
var notB64TokenChar = func() (t [256]byte) {
	for c := range 256 {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~+/", byte(c)) >= 0) {
			t[c] = 1
		}
	}
	return t
}()

// isB64Token reports whether s is a non-empty RFC 6750 b64token: at least
// one of the token characters, then optional '=' padding. It runs on every
// request, over the whole token: the loop looks up eight bytes per round
// and branches only at the end.
func isB64Token(s string) bool {
	if len(s) > MaxCredential {
		return false
	}
	n := len(s)
	for n > 0 && s[n-1] == '=' {
		n--
	}
	if n == 0 {
		return false
	}
	var bad byte
	i := 0
	for ; i+8 <= n; i += 8 {
		b := s[i : i+8]
		bad |= notB64TokenChar[b[0]] | notB64TokenChar[b[1]] | notB64TokenChar[b[2]] | notB64TokenChar[b[3]] |
			notB64TokenChar[b[4]] | notB64TokenChar[b[5]] | notB64TokenChar[b[6]] | notB64TokenChar[b[7]]
	}
	for ; i < n; i++ {
		bad |= notB64TokenChar[s[i]]
	}
	return bad == 0
}
