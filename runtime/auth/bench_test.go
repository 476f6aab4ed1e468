package auth_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

// BenchmarkGuard measures what the guard adds to one tools/call request
// with a token it has verified before (a client sends the same token until
// it expires; the signature is checked once), against the same request
// without the guard. Compare with BenchmarkHTTPCallsAuth in
// runtime/transport for the cost of a whole call.
func BenchmarkGuard(b *testing.B) {
	is := authtest.NewIssuer(b)
	g := newGuardB(b, is)
	h := g.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), need)
	body := callBody("read_tool")
	run := func(b *testing.B, token func(i int) string) {
		for i := 0; b.Loop(); i++ {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
			r.Header.Set("Authorization", "Bearer "+token(i))
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatal(w.Code, w.Body)
			}
		}
	}
	b.Run("verified-before", func(b *testing.B) {
		tok := is.Sign(b, "k1", is.Claims(resource, "tools:read"))
		run(b, func(int) string { return tok })
	})
	// As the HTTP transport hands the guard its bodies: read and scanned
	// already (auth.ScannedBody), so the guard neither reads nor decodes.
	b.Run("verified-before-scanned-body", func(b *testing.B) {
		tok := "Bearer " + is.Sign(b, "k1", is.Claims(resource, "tools:read"))
		sb := &scannedBody{body: []byte(body), method: "tools/call", name: "read_tool"}
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
			r.Body = sb
			r.Header.Set("Authorization", tok)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatal(w.Code, w.Body)
			}
		}
	})
	b.Run("no-auth-baseline", func(b *testing.B) {
		for b.Loop() {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
			w := httptest.NewRecorder()
			http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}).ServeHTTP(w, r)
		}
	})
}

// scannedBody is a body read and scanned before the guard, as the HTTP
// transport's are.
type scannedBody struct {
	body         []byte
	method, name string
}

func (s *scannedBody) Read([]byte) (int, error)             { return 0, io.EOF }
func (s *scannedBody) Close() error                         { return nil }
func (s *scannedBody) Bytes() []byte                        { return s.body }
func (s *scannedBody) Item() (method, name string, ok bool) { return s.method, s.name, true }

var _ auth.ScannedBody = (*scannedBody)(nil)
