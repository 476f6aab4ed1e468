package auth

import (
	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
)

// callerExtra is the key of the caller in a go-sdk TokenInfo's Extra.
const callerExtra = "mcpgen.caller"

// Attach stores c in ti, the token information the go-sdk carries from the
// HTTP request to the request handlers (RequestExtra.TokenInfo), where
// CallerFromTokenInfo finds it. The HTTP layer calls it once the token is
// verified; it returns ti.
func Attach(ti *sdkauth.TokenInfo, c *Caller) *sdkauth.TokenInfo {
	if ti.Extra == nil {
		ti.Extra = map[string]any{}
	}
	ti.Extra[callerExtra] = c
	return ti
}

// CallerFromTokenInfo returns the caller Attach stored in ti, or nil.
func CallerFromTokenInfo(ti *sdkauth.TokenInfo) *Caller {
	if ti == nil {
		return nil
	}
	c, _ := ti.Extra[callerExtra].(*Caller)
	return c
}
