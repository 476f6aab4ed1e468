package handlers

import (
	"context"
	"net/http"
)

type incomingKey struct{}

// WithIncomingHeader returns ctx carrying the headers of the client's HTTP
// request that brought the call, for backends that forward some of them.
// They are copied only when a backend asks for them (IncomingHeader), and
// the caller must not change h meanwhile.
func WithIncomingHeader(ctx context.Context, h http.Header) context.Context {
	if h == nil {
		return ctx
	}
	return context.WithValue(ctx, incomingKey{}, incoming{h})
}

// incoming holds a request's headers as the client sent them.
type incoming struct{ h http.Header }

// IncomingHeader returns a copy of the client's request headers ctx carries
// (nil over stdio), without credentials (Authorization,
// Proxy-Authorization, Cookie): nothing past the transport can reach the
// caller's token.
func IncomingHeader(ctx context.Context) http.Header {
	in, ok := ctx.Value(incomingKey{}).(incoming)
	if !ok {
		return nil
	}
	h := in.h.Clone()
	for _, name := range credentialHeaders {
		h.Del(name)
	}
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
