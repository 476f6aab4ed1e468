package auth_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/spec"
)

// countingTransport counts the requests of a client.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestRealProvider checks client-credentials tokens of a real
// authorization server (oidc-provider): keys discovered from the issuer's
// metadata, audience, scopes, opaque tokens through introspection (cached),
// and key rotation when the provider restarts with a new key.
func TestRealProvider(t *testing.T) {
	const mcp, other, opaque = "http://127.0.0.1:25200/mcp", "http://127.0.0.1:25201/mcp", "http://127.0.0.1:25200/opaque"
	port := authtest.FreePort(t)
	o := authtest.IdPOptions{Port: port, Resource: mcp, Other: other, Opaque: opaque, KID: "k1"}
	idp := authtest.StartIdP(t, o)
	rt := &countingTransport{}
	g, err := auth.New(&spec.Auth{Resource: mcp, OAuth: &spec.OAuth{Issuer: idp.Issuer, // keys discovered
		Introspection: &spec.Introspection{URL: idp.IntrospectionURL, ClientID: "mcpgen-rs", ClientSecret: "rs-secret"}},
	}, auth.Options{Client: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx := context.Background()

	c, _, err := g.Authenticate(ctx, idp.Token(t, "mcp-reader", "reader-secret", "tools:read", ""))
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject != "mcp-reader" || c.ClientID != "mcp-reader" || !slices.Equal(c.Scopes, []string{"tools:read"}) {
		t.Errorf("caller %+v", c)
	}
	if _, err := idp.TryToken("mcp-reader", "reader-secret", "admin", ""); err == nil {
		t.Error("the provider granted a scope the client does not have")
	}
	_, _, err = g.Authenticate(ctx, idp.Token(t, "mcp-admin", "admin-secret", "admin", other))
	if !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("token for another resource: %v, want invalid token", err)
	}

	op := idp.Token(t, "mcp-reader", "reader-secret", "tools:read", opaque)
	if _, _, err := g.Authenticate(ctx, op); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("opaque token for another audience: %v, want invalid token", err)
	}

	// Rotation: the provider restarts with a new key on the same port.
	idp.Stop()
	o.KID = "k2"
	idp = authtest.StartIdP(t, o)
	c, _, err = g.Authenticate(ctx, idp.Token(t, "mcp-admin", "admin-secret", "tools:read admin", ""))
	if err != nil {
		t.Fatalf("token signed with the rotated key: %v", err)
	}
	if !c.HasScopes([]string{"admin"}) {
		t.Errorf("scopes %v", c.Scopes)
	}
}

// TestRealProviderIntrospection checks opaque tokens: accepted through
// introspection, and the answer reused until the token expires.
func TestRealProviderIntrospection(t *testing.T) {
	const resource = "http://127.0.0.1:25200/mcp"
	idp := authtest.StartIdP(t, authtest.IdPOptions{Resource: resource, Opaque: resource + "/opaque"})
	rt := &countingTransport{}
	g, err := auth.New(&spec.Auth{Resource: resource + "/opaque", OAuth: &spec.OAuth{Issuer: idp.Issuer, JWKSURL: idp.JWKSURL,
		Introspection: &spec.Introspection{URL: idp.IntrospectionURL, ClientID: "mcpgen-rs", ClientSecret: "rs-secret"}},
	}, auth.Options{Client: &http.Client{Transport: rt}})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	op := idp.Token(t, "mcp-reader", "reader-secret", "tools:read", resource+"/opaque")
	for range 3 {
		c, _, err := g.Authenticate(context.Background(), op)
		if err != nil {
			t.Fatal(err)
		}
		if c.ClientID != "mcp-reader" || !c.HasScopes([]string{"tools:read"}) {
			t.Errorf("caller %+v", c)
		}
	}
	if n := rt.n.Load(); n != 1 {
		t.Errorf("3 checks of one token asked the provider %d times, want 1", n)
	}
	if _, _, err := g.Authenticate(context.Background(), "not-a-token-at-all-0123456789"); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("unknown opaque token: %v", err)
	}
}
