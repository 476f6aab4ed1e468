package httpkind_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

// claims decodes a JWT's payload without checking it: the backend of the
// test only looks at what it was given.
func claims(t *testing.T, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTokenExchangeWithOIDCProvider exchanges a real access token for the
// MCP server at a real authorization server and checks what the backend
// receives: a token issued for it, for the same user, naming mcpgen as the
// actor, and never the caller's own token.
func TestTokenExchangeWithOIDCProvider(t *testing.T) {
	api := newRecorder(t, jsonReply(200, map[string]any{"orders": []any{}}))
	backend, mcpResource := api.URL+"/api", "http://127.0.0.1:1/mcp"
	p := authtest.StartIdP(t, authtest.IdPOptions{Resource: mcpResource, Backend: backend})
	inbound := p.Token(t, "mcp-reader", "reader-secret", "tools:read", mcpResource)
	user := auth.NewCaller(auth.Caller{Subject: "mcp-reader"}, inbound)
	config := withBackend(backend, "auth:\n  token_exchange:\n    token_url: "+p.Issuer+"/token\n"+
		"    client_id: mcpgen-rs\n    client_secret: rs-secret\n    resource: "+backend+"\n    scopes: [orders:read]\n",
		tool("", "path: /orders\n"))
	s := build(t, config)
	mustSucceed(t, callAs(t, s, user, "t"))
	mustSucceed(t, callAs(t, s, user, "t"))
	reqs := api.requests()
	first, second := reqs[0].Header.Get("Authorization"), reqs[1].Header.Get("Authorization")
	if first != second {
		t.Errorf("the second call exchanged again: %q, then %q", first, second)
	}
	tok := strings.TrimPrefix(first, "Bearer ")
	if tok == inbound || strings.Contains(first, inbound) {
		t.Fatal("the backend received the caller's own token")
	}
	c := claims(t, tok)
	act, _ := c["act"].(map[string]any)
	for _, check := range []struct {
		name string
		got  any
		want string
	}{{"sub", c["sub"], "mcp-reader"}, {"aud", c["aud"], backend}, {"scope", c["scope"], "orders:read"},
		{"act.sub", act["sub"], "mcpgen-rs"}, {"client_id", c["client_id"], "mcpgen-rs"}} {
		if check.got != check.want {
			t.Errorf("exchanged token %s = %v, want %s", check.name, check.got, check.want)
		}
	}

	// a token the authorization server does not accept as a subject token
	// (issued for another resource) is refused, and the backend is not called
	other := p.Token(t, "mcpgen-rs", "rs-secret", "orders:read", backend)
	res := callAs(t, s, auth.NewCaller(auth.Caller{Subject: "mcp-reader"}, other), "t")
	if got := mustFail(t, res); !strings.Contains(got, "token exchange: HTTP 400 invalid_grant") || strings.Contains(got, other) {
		t.Errorf("foreign subject token: %q", got)
	}
	if n := len(api.requests()); n != 2 {
		t.Errorf("the backend received %d requests, want 2", n)
	}
}
