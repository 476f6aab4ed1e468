package transport_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// headerTransport adds headers to every request of an HTTP client.
type headerTransport struct{ h http.Header }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.h {
		r.Header[k] = v
	}
	return testTransport.RoundTrip(r)
}

// TestCallerOverHTTP: over Streamable HTTP, the caller whose token the
// guard verified reaches expressions and bound arguments, and the allowed
// request headers reach the backend; the caller's token and cookies do
// not.
func TestCallerOverHTTP(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		t.Run(map[bool]string{false: "sessions", true: "stateless"}[stateless], func(t *testing.T) {
			t.Parallel()
			testCallerOverHTTP(t, transport.HTTPOptions{Stateless: stateless})
		})
	}
}

func testCallerOverHTTP(t *testing.T, opts transport.HTTPOptions) {
	got := make(chan http.Header, 1)
	query := make(chan string, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Clone()
		query <- r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok": true}`))
	}))
	defer api.Close()
	is := authtest.NewIssuer(t)
	claims := is.Claims(authResource, "orders:read")
	claims["sub"], claims["email"] = "ann", "ann@example.com"
	token := is.Sign(t, "k1", claims)
	config := `
version: 1
server:
  http:
    auth:
      resource: ` + authResource + `
      oauth: {issuer: ` + is.Name + `, jwks_url: ` + is.JWKSURL + `, algorithms: [ES256]}
      claims: {email: string}
tools:
  - name: my_orders
    description: Lists the caller's orders.
    args:
      - {name: owner, from: auth.subject, required: true}
    handler:
      kind: http
      base_url: ` + api.URL + `
      path: /orders
      query: {owner: "${{ args.owner }}"}
      headers: {X-User-Email: "${{ auth.claims.email }}"}
      forward_headers: [traceparent, X-Tenant]
`
	srv, _ := build(t, builtin.Registry(), config, nil)
	h := transport.NewHTTPHandler(srv, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); ts.CloseClientConnections(); ts.Close() })

	client := &http.Client{Transport: headerTransport{http.Header{"Authorization": {"Bearer " + token},
		"Traceparent": {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}, "X-Tenant": {"acme"},
		"Cookie": {"session=secret"}, "X-Other": {"no"}}}}
	ctx := testCtx(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: ts.URL + transport.MCPPath, HTTPClient: client}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "my_orders", Arguments: map[string]any{"owner": "mallory"}})
	if err != nil || !res.IsError || !strings.Contains(runtime.ResultText(res), "owner is set by the server") {
		t.Fatalf("passing owner: %v %v", runtime.ResultText(res), err)
	}
	res = callTool(t, ctx, cs, "my_orders", nil)
	if res.IsError {
		t.Fatalf("my_orders: %s", runtime.ResultText(res))
	}
	if q := <-query; q != "owner=ann" {
		t.Errorf("query = %q, want owner=ann", q)
	}
	hdr := <-got
	seen := map[string]string{}
	for _, k := range []string{"X-User-Email", "Traceparent", "X-Tenant", "Cookie", "X-Other", "Authorization"} {
		seen[k] = hdr.Get(k)
	}
	want := map[string]string{"X-User-Email": "ann@example.com", "Traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
		"X-Tenant": "acme", "Cookie": "", "X-Other": "", "Authorization": ""}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("headers at the backend (-want +got):\n%s", diff)
	}
	b, _ := json.Marshal(hdr)
	if strings.Contains(string(b), token) {
		t.Errorf("the caller's token reached the backend: %s", b)
	}
}
