package auth

import (
	"context"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
)

// callerExtra is the TokenInfo.Extra key holding the *Caller.
const callerExtra = "mcpgen.caller"

type verifiedKey struct{}

func withVerified(ctx context.Context, ti *sdkauth.TokenInfo) context.Context {
	return context.WithValue(ctx, verifiedKey{}, ti)
}

// tokenInfo is how the go-sdk carries c to request handlers: the go-sdk
// does not pass the HTTP request's context to them, but it does pass the
// TokenInfo of the request. Its UserID, which the go-sdk binds sessions
// to, is the issuer and subject, or the API key.
func (g *Guard) tokenInfo(c *Caller, exp time.Time) *sdkauth.TokenInfo {
	user := c.Subject
	if c.KeyName == "" {
		user = g.issuer + "|" + c.Subject
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
