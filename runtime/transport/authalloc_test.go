package transport_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestAuthAllocations pins what token checking allocates on a tools/call
// with a token verified before, beside the same call without auth: the
// context value handing the caller to the go-sdk, the one putting it on the
// handler's context, the called tool's name, and the one copy of the
// request that carries the caller (a request without auth is not copied).
// What net/http allocates to read the header is not counted: the header is
// set on the request directly.
func TestAuthAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations over many calls")
	}
	if raceEnabled {
		t.Skip("allocation counts under the race detector vary with its random drops from sync.Pool")
	}
	is := authtest.NewIssuer(t)
	withAuth := benchConfig + fmt.Sprintf("server:\n  http:\n    auth:\n      resource: %s\n      required_scopes: [tools:read]\n"+
		"      oauth: {issuer: %s, jwks_url: %s, algorithms: [ES256]}\n", authResource, is.Name, is.JWKSURL)
	credential := []string{"Bearer " + is.Sign(t, "k1", is.Claims(authResource, "tools:read"))}
	allocs := func(config string, auth bool) float64 {
		srv, _ := build(t, nil, config, nil)
		h := transport.NewHTTPHandler(srv, transport.HTTPOptions{Stateless: true})
		defer h.Close()
		w := httptest.NewRecorder()
		call := func() {
			body := strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", body)
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("MCP-Protocol-Version", "2025-11-25")
			if auth {
				r.Header["Authorization"] = credential // read by net/http before: not counted
			}
			w = httptest.NewRecorder()
			h.ServeHTTP(w, r)
		}
		n := testing.AllocsPerRun(500, call)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"hi"`) {
			t.Fatalf("auth %v: %d %s", auth, w.Code, w.Body)
		}
		return n
	}
	none, jwt := allocs(benchConfig, false), allocs(withAuth, true)
	if extra := jwt - none; extra > 4 {
		t.Errorf("token checking allocates %.1f times per call (%.1f with, %.1f without auth), want at most 4", extra, jwt, none)
	}
}
