package handlers

import (
	"context"
	"net/http"
)

type incomingKey struct{}

// WithIncomingHeader returns ctx carrying the headers of the client's HTTP
// request that brought the call, for backends that forward some of them.
// Credentials (Authorization, Proxy-Authorization, Cookie) are removed
// first: nothing past the transport can reach the caller's token.
func WithIncomingHeader(ctx context.Context, h http.Header) context.Context {
	if h == nil {
		return ctx
	}
	h = h.Clone()
	for _, name := range credentialHeaders {
		h.Del(name)
	}
	return context.WithValue(ctx, incomingKey{}, h)
}

// IncomingHeader returns the client's request headers ctx carries (nil over
// stdio), without credentials. Callers must not modify it.
func IncomingHeader(ctx context.Context) http.Header {
	h, _ := ctx.Value(incomingKey{}).(http.Header)
	return h
}

// credentialHeaders carry the client's credentials; they are never
// forwarded, whatever the config says.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// IsCredentialHeader reports whether name carries the client's credentials
// (Authorization, Proxy-Authorization, Cookie), in any case.
func IsCredentialHeader(name string) bool {
	canon := http.CanonicalHeaderKey(name)
	for _, c := range credentialHeaders {
		if canon == c {
			return true
		}
	}
	return false
}
