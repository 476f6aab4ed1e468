package auth_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"crypto/x509"
	"encoding/pem"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/spec"
)

const (
	resource = "https://mcp.test/mcp"
	apiKey   = "ci-key-0123456789abcdef"
)

// newGuard returns a guard trusting is, with one API key.
func newGuard(t *testing.T, is *authtest.Issuer) *auth.Guard { return newGuardB(t, is) }

func newGuardB(t testing.TB, is *authtest.Issuer) *auth.Guard {
	t.Helper()
	g, err := auth.New(&spec.Auth{Resource: resource,
		OAuth:   &spec.OAuth{Issuer: is.Name, JWKSURL: is.JWKSURL, Algorithms: []string{"ES256"}},
		APIKeys: []*spec.APIKey{{Name: "ci", Key: apiKey, Scopes: []string{"tools:read"}}},
	}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// need: the tool "admin_tool" needs the scope admin.
func need(method, name string) []string {
	if method == "tools/call" && name == "admin_tool" {
		return []string{"admin"}
	}
	return nil
}

// served records what reached the handler behind the guard.
type served struct {
	calls  int
	caller *auth.Caller
}

func (s *served) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.calls++
	s.caller = auth.CallerFromTokenInfo(sdkauth.TokenInfoFromContext(r.Context()))
	w.WriteHeader(http.StatusOK)
}

func callBody(tool string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
}

func TestGuardHostileCredentials(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.AddKey(t, "k9", false) // never published
	g := newGuard(t, is)
	valid := func(mod func(jwt.MapClaims)) string {
		c := is.Claims(resource, "tools:read")
		if mod != nil {
			mod(c)
		}
		return is.Sign(t, "k1", c)
	}
	ago := time.Now().Add(-10 * time.Minute).Unix()
	later := time.Now().Add(10 * time.Minute).Unix()
	for _, tt := range []struct {
		name    string
		headers []string // Authorization values
		tool    string
		want    int
		wantErr string // error= in WWW-Authenticate; "" for none
	}{
		{"valid token", []string{"Bearer " + valid(nil)}, "read_tool", 200, ""},
		{"lowercase scheme", []string{"bearer " + valid(nil)}, "read_tool", 200, ""},
		{"no credential", nil, "read_tool", 401, ""},
		{"another scheme", []string{"Basic dXNlcjpwYXNz"}, "read_tool", 401, ""},
		{"expired", []string{"Bearer " + valid(func(c jwt.MapClaims) { c["exp"] = ago })}, "read_tool", 401, "invalid_token"},
		{"not yet valid", []string{"Bearer " + valid(func(c jwt.MapClaims) { c["nbf"] = later })}, "read_tool", 401, "invalid_token"},
		{"no expiry", []string{"Bearer " + valid(func(c jwt.MapClaims) { delete(c, "exp") })}, "read_tool", 401, "invalid_token"},
		{"wrong issuer", []string{"Bearer " + valid(func(c jwt.MapClaims) { c["iss"] = "https://evil.test" })}, "read_tool", 401, "invalid_token"},
		{"wrong audience", []string{"Bearer " + valid(func(c jwt.MapClaims) { c["aud"] = "https://mcp.test/other" })}, "read_tool", 401, "invalid_token"},
		{"token for another resource", []string{"Bearer " + valid(func(c jwt.MapClaims) { c["aud"] = "https://other.test/mcp" })}, "read_tool", 401, "invalid_token"},
		{"no subject", []string{"Bearer " + valid(func(c jwt.MapClaims) { delete(c, "sub") })}, "read_tool", 401, "invalid_token"},
		{"alg none", []string{"Bearer " + algNone(t, is.Claims(resource, "tools:read admin"))}, "read_tool", 401, "invalid_token"},
		{"HS256 signed with the public key", []string{"Bearer " + hmacWithPublicKey(t, is, is.Claims(resource, "tools:read admin"))}, "read_tool", 401, "invalid_token"},
		{"tampered payload", []string{"Bearer " + tamper(t, valid(nil), "admin")}, "admin_tool", 401, "invalid_token"},
		{"crit header with an unknown extension", []string{"Bearer " + is.SignWithHeader(t, "k1", is.Claims(resource, "tools:read"),
			map[string]any{"crit": []string{"exp-policy"}, "exp-policy": "lenient"})}, "read_tool", 401, "invalid_token"},
		{"empty crit header", []string{"Bearer " + is.SignWithHeader(t, "k1", is.Claims(resource, "tools:read"),
			map[string]any{"crit": []string{}})}, "read_tool", 401, "invalid_token"},
		{"unknown kid", []string{"Bearer " + is.Sign(t, "k9", is.Claims(resource, "tools:read"))}, "read_tool", 401, "invalid_token"},
		{"missing scope", []string{"Bearer " + valid(nil)}, "admin_tool", 403, "insufficient_scope"},
		{"API key", []string{"Bearer " + apiKey}, "read_tool", 200, ""},
		{"API key differing in one byte", []string{"Bearer " + apiKey[:len(apiKey)-1] + "g"}, "read_tool", 401, "invalid_token"},
		{"API key without the scope", []string{"Bearer " + apiKey}, "admin_tool", 403, "insufficient_scope"},
		{"header of 1 MiB", []string{"Bearer " + strings.Repeat("a", 1<<20)}, "read_tool", 400, "invalid_request"},
		{"two Authorization headers", []string{"Bearer " + valid(nil), "Bearer " + valid(nil)}, "read_tool", 400, "invalid_request"},
		{"credential with a space", []string{"Bearer " + valid(nil) + " x"}, "read_tool", 400, "invalid_request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			next := &served{}
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody(tt.tool)))
			for _, h := range tt.headers {
				r.Header.Add("Authorization", h)
			}
			w := httptest.NewRecorder()
			g.Middleware(next, need).ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if ran := next.calls > 0; ran != (tt.want == 200) {
				t.Errorf("handler ran: %v, want %v", ran, tt.want == 200)
			}
			challenge := w.Header().Get("WWW-Authenticate")
			if tt.want == 200 {
				if next.caller == nil {
					t.Fatal("no caller reached the handler")
				}
				return
			}
			if tt.want != 400 && !strings.Contains(challenge, `resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"`) {
				t.Errorf("challenge %q names no resource metadata", challenge)
			}
			if got := challengeError(challenge); got != tt.wantErr {
				t.Errorf("challenge %q: error %q, want %q", challenge, got, tt.wantErr)
			}
		})
	}
}

func challengeError(h string) string {
	_, rest, ok := strings.Cut(h, `error="`)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func TestGuardInsufficientScopeNamesEveryScope(t *testing.T) {
	is := authtest.NewIssuer(t)
	g, err := auth.New(&spec.Auth{Resource: resource, RequiredScopes: []string{"tools:read"},
		OAuth: &spec.OAuth{Issuer: is.Name, JWKSURL: is.JWKSURL}}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tok := is.Sign(t, "k1", is.Claims(resource, "tools:read"))
	needMore := func(method, name string) []string {
		return map[string][]string{"admin_tool": {"admin"}, "write_tool": {"tools:write"}}[name]
	}
	escaped := strings.Replace(callBody("admin_tool"), "tools/call", `tools\/call`, 1)
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(escaped))
	r.Header.Set("Authorization", "Bearer "+tok)
	w := httptest.NewRecorder()
	g.Middleware(&served{}, needMore).ServeHTTP(w, r)
	if w.Code != 403 {
		t.Errorf("tools\\/call (an escaped slash): %d, want 403", w.Code)
	}
	batch := "[" + callBody("admin_tool") + "," + strings.Replace(callBody("write_tool"), `"id":1`, `"id":2`, 1) + "]"
	r = httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(batch))
	r.Header.Set("Authorization", "Bearer "+tok)
	w = httptest.NewRecorder()
	next := &served{}
	g.Middleware(next, needMore).ServeHTTP(w, r)
	if w.Code != 403 || next.calls != 0 {
		t.Fatalf("status %d, handler ran %d times; want 403 and never", w.Code, next.calls)
	}
	want := `Bearer error="insufficient_scope", scope="admin tools:read tools:write", resource_metadata="https://mcp.test/.well-known/oauth-protected-resource/mcp"`
	if got := w.Header().Get("WWW-Authenticate"); !strings.HasPrefix(got, want) {
		t.Errorf("challenge\n got %s\nwant %s, error_description=…", got, want)
	}
}

// A server that admits requests itself (Admit) and serves ItemScopes at
// the endpoint: an admitted request goes on; one that reached the endpoint
// without Admit, even with a valid token, is refused.
func TestGuardItemScopesNeedsAdmit(t *testing.T) {
	is := authtest.NewIssuer(t)
	g := newGuard(t, is)
	tok := "Bearer " + is.Sign(t, "k1", is.Claims(resource, "tools:read"))
	next := &served{}
	endpoint := g.ItemScopes(next, need)
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody("read_tool")))
	r.Header.Set("Authorization", tok)
	w := httptest.NewRecorder()
	endpoint.ServeHTTP(w, r)
	if w.Code != 401 || next.calls != 0 {
		t.Fatalf("not admitted: status %d, handler ran %d times; want 401 and never", w.Code, next.calls)
	}
	ctx, ok := g.Admit(r.Context(), w, r)
	if !ok {
		t.Fatalf("Admit refused a valid token: %d %s", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	endpoint.ServeHTTP(w, r.WithContext(ctx))
	if w.Code != 200 || next.caller == nil || next.caller.Subject != "alice" {
		t.Fatalf("admitted: status %d, caller %+v; want 200 and alice", w.Code, next.caller)
	}
}

// A token verified before is found in the cache without its characters
// being checked again; any other bytes still are, and get the answer they
// got before it was cached.
func TestGuardVerifiedTokenOnlyForTheSameBytes(t *testing.T) {
	is := authtest.NewIssuer(t)
	g, err := auth.New(&spec.Auth{Resource: resource,
		OAuth: &spec.OAuth{Issuer: is.Name, JWKSURL: is.JWKSURL, Algorithms: []string{"ES256"}}}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	tok := is.Sign(t, "k1", is.Claims(resource, "tools:read"))
	i := len(tok) - 10 // inside the signature
	other := "A"
	if tok[i:i+1] == other {
		other = "B"
	}
	for _, tt := range []struct {
		name, header string
		want         int
	}{
		{"first", "Bearer " + tok, 200},
		{"again", "Bearer " + tok, 200},
		{"after two spaces", "Bearer  " + tok, 200},
		{"with a character no token has", "Bearer " + tok + "!", 400},
		{"with a space inside", "Bearer " + tok[:10] + " " + tok[10:], 400},
		{"one character changed", "Bearer " + tok[:i] + other + tok[i+1:], 401},
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody("read_tool")))
		r.Header.Set("Authorization", tt.header)
		w := httptest.NewRecorder()
		g.Middleware(&served{}, need).ServeHTTP(w, r)
		if w.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, w.Code, tt.want)
		}
	}
}

func TestGuardUnknownKIDRefetchIsRateLimited(t *testing.T) {
	is := authtest.NewIssuer(t)
	g := newGuard(t, is)
	check := func(tok string) int {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody("read_tool")))
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		g.Middleware(&served{}, need).ServeHTTP(w, r)
		return w.Code
	}
	if got := check(is.Sign(t, "k1", is.Claims(resource, "tools:read"))); got != 200 {
		t.Fatalf("valid token: %d", got)
	}
	// The issuer rotates to k2: the first k2 token refetches the keys.
	is.AddKey(t, "k2", true)
	if got := check(is.Sign(t, "k2", is.Claims(resource, "tools:read"))); got != 200 {
		t.Fatalf("token of the rotated key: %d", got)
	}
	before := is.Fetches.Load()
	is.AddKey(t, "forged", false)
	for range 20 {
		if got := check(is.Sign(t, "forged", is.Claims(resource, "tools:read"))); got != 401 {
			t.Fatalf("forged kid: %d, want 401", got)
		}
	}
	if n := is.Fetches.Load() - before; n > 1 {
		t.Errorf("20 unknown-kid tokens fetched the keys %d times; want at most 1", n)
	}
}

func TestMetadata(t *testing.T) {
	is := authtest.NewIssuer(t)
	g := newGuard(t, is)
	got := g.MetadataPaths("/mcp")
	want := []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("paths %q, want %q", got, want)
	}
	w := httptest.NewRecorder()
	g.MetadataHandler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, want[1], nil))
	var doc map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["resource"] != resource || doc["authorization_servers"].([]any)[0] != is.Name {
		t.Errorf("metadata %v", doc)
	}
}

// algNone is an unsigned token (alg none).
func algNone(t *testing.T, claims jwt.MapClaims) string {
	s, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// hmacWithPublicKey signs with HS256, using the issuer's public key (PEM)
// as the HMAC secret: the classic key-confusion attack.
func hmacWithPublicKey(t *testing.T, is *authtest.Issuer, claims jwt.MapClaims) string {
	der, err := x509.MarshalPKIXPublicKey(is.PublicKey("k1"))
	if err != nil {
		t.Fatal(err)
	}
	secret := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	tok.Header["kid"] = "k1"
	s, err := tok.SignedString(secret)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tamper rewrites a signed token's scope, keeping its signature.
func tamper(t *testing.T, tok, scope string) string {
	parts := strings.Split(tok, ".")
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	claims["scope"] = scope
	parts[1] = base64.RawURLEncoding.EncodeToString(authtest.JSON(t, claims))
	return strings.Join(parts, ".")
}

// TestGuardKeysUnreachable: when the keys cannot be fetched the answer is
// 503 (retry later), not 401, which would send clients through
// authorization again for nothing.
func TestGuardKeysUnreachable(t *testing.T) {
	is := authtest.NewIssuer(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	g, err := auth.New(&spec.Auth{Resource: resource, OAuth: &spec.OAuth{Issuer: is.Name, JWKSURL: dead.URL + "/jwks"}}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody("read_tool")))
	r.Header.Set("Authorization", "Bearer "+is.Sign(t, "k1", is.Claims(resource, "tools:read")))
	w := httptest.NewRecorder()
	next := &served{}
	g.Middleware(next, need).ServeHTTP(w, r)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" || next.calls != 0 {
		t.Errorf("status %d, Retry-After %q, handler ran %d times; want 503, a Retry-After, never",
			w.Code, w.Header().Get("Retry-After"), next.calls)
	}
}

// TestGuardScopeHierarchy: a scope implies the scopes `implies` lists for
// it, transitively, for tokens and API keys alike; nothing implies a
// broader scope.
func TestGuardScopeHierarchy(t *testing.T) {
	is := authtest.NewIssuer(t)
	g, err := auth.New(&spec.Auth{Resource: resource, RequiredScopes: []string{"tools:read"},
		Implies: map[string][]string{"admin": {"tools:write"}, "tools:write": {"tools:read"}},
		OAuth:   &spec.OAuth{Issuer: is.Name, JWKSURL: is.JWKSURL, Algorithms: []string{"ES256"}},
		APIKeys: []*spec.APIKey{{Name: "ops", Key: apiKey, Scopes: []string{"admin"}}},
	}, auth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	for _, tt := range []struct {
		name, cred, tool string
		want             int
		scopes           []string // the caller's, when admitted
	}{
		{"admin token", is.Sign(t, "k1", is.Claims(resource, "admin")), "admin_tool", 200, []string{"admin", "tools:read", "tools:write"}},
		{"admin API key", apiKey, "admin_tool", 200, []string{"admin", "tools:read", "tools:write"}},
		{"tools:write implies the required tools:read", is.Sign(t, "k1", is.Claims(resource, "tools:write")), "read_tool", 200, []string{"tools:write", "tools:read"}},
		{"nothing implies admin", is.Sign(t, "k1", is.Claims(resource, "tools:write")), "admin_tool", 403, nil},
		{"nothing implies tools:write", is.Sign(t, "k1", is.Claims(resource, "tools:read")), "read_tool", 200, []string{"tools:read"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			next := &served{}
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(callBody(tt.tool)))
			r.Header.Set("Authorization", "Bearer "+tt.cred)
			w := httptest.NewRecorder()
			g.Middleware(next, need).ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if tt.want == 200 && !slices.Equal(next.caller.Scopes, tt.scopes) {
				t.Errorf("caller's scopes %q, want %q", next.caller.Scopes, tt.scopes)
			}
		})
	}
}
