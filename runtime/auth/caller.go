// Package auth identifies who is calling an mcpgen server over HTTP and
// carries that caller on the request's context, so that list results,
// scope checks, audit logs, rate limits and backends can depend on it.
package auth

import (
	"context"
	"slices"

	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
)

// Caller is an authenticated client: the subject of a verified token or the
// name of a static API key. A nil *Caller means nobody authenticated (stdio,
// or an HTTP server without auth).
type Caller struct {
	// Subject identifies the end user or client: the token's `sub` claim,
	// or "key:NAME" for an API key.
	Subject string
	// KeyName is the API key's configured name; empty for tokens.
	KeyName string
	// ClientID is the OAuth client the token was issued to, when known.
	ClientID string
	// Scopes are the scopes granted to the caller.
	Scopes []string
	// Claims are the token's claims (or the introspection answer), as
	// decoded JSON values; empty for API keys.
	Claims map[string]any
	// token is the caller's raw bearer token. It is never passed to a
	// backend as is; token exchange uses it as the subject token.
	token string
	// info is what the go-sdk is handed for this caller (see tokenInfo);
	// nil for callers the guard did not make.
	info *sdkauth.TokenInfo
}

// NewCaller returns a caller holding its raw token (empty for API keys).
func NewCaller(c Caller, token string) *Caller {
	c.token = token
	return &c
}

// Token returns the caller's raw bearer token, for RFC 8693 token exchange
// only; it must never be sent to a backend or logged.
func (c *Caller) Token() string {
	if c == nil {
		return ""
	}
	return c.token
}

// HasScopes reports whether the caller was granted every scope in need.
func (c *Caller) HasScopes(need []string) bool {
	for _, s := range need {
		if c == nil || !slices.Contains(c.Scopes, s) {
			return false
		}
	}
	return true
}

type callerKey struct{}

// WithCaller returns ctx carrying c.
func WithCaller(ctx context.Context, c *Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller ctx carries, or nil.
func CallerFrom(ctx context.Context) *Caller {
	c, _ := ctx.Value(callerKey{}).(*Caller)
	return c
}
