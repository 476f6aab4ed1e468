package configtest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
)

// caller makes the case's caller as the server's guard would: its scopes
// with those they imply, its claims as decoded from a token's JSON. Nil
// when the case gives none.
func (c *Caller) caller(srv *runtime.Server) (*auth.Caller, error) {
	if c == nil {
		return nil, nil
	}
	raw, err := json.Marshal(c.Claims)
	if err != nil {
		return nil, fmt.Errorf("caller.claims: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var claims map[string]any
	if err := dec.Decode(&claims); err != nil {
		return nil, fmt.Errorf("caller.claims: %w", err)
	}
	if claims == nil {
		claims = map[string]any{}
	}
	claims["sub"] = c.Subject
	return auth.NewCaller(auth.Caller{Subject: c.Subject, ClientID: c.ClientID, Scopes: srv.Auth().Implied(c.Scopes),
		Claims: claims}, ""), nil
}
