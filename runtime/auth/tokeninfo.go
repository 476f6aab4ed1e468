package auth

import (
	"time"

	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
)

// callerExtra is the TokenInfo.Extra key holding the *Caller.
const callerExtra = "mcpgen.caller"

// issuedCaller returns c holding its raw token (empty for API keys) and the
// TokenInfo the go-sdk is handed for it. Both are made once per credential:
// a verified token is cached with its caller, and every request presenting
// it again reuses them.
func issuedCaller(c Caller, raw, issuer string, exp time.Time) *Caller {
	p := NewCaller(c, raw)
	p.info = tokenInfo(p, issuer, exp)
	return p
}

// tokenInfo is how the go-sdk carries c to request handlers: the go-sdk
// does not pass the HTTP request's context to them, but it does pass the
// TokenInfo of the request. Its UserID, which the go-sdk binds sessions
// to, is the issuer and subject, or the API key.
func tokenInfo(c *Caller, issuer string, exp time.Time) *sdkauth.TokenInfo {
	user := c.Subject
	if c.KeyName == "" {
		user = issuer + "|" + c.Subject
	}
	return &sdkauth.TokenInfo{Scopes: c.Scopes, Expiration: exp, UserID: user,
		Extra: map[string]any{callerExtra: c}}
}

// CallerFromTokenInfo returns the caller the guard put in a request's
// TokenInfo (from mcp.RequestExtra), or nil.
func CallerFromTokenInfo(ti *sdkauth.TokenInfo) *Caller {
	if ti == nil {
		return nil
	}
	c, _ := ti.Extra[callerExtra].(*Caller)
	return c
}
