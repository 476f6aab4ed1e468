// Package authtest helps test mcpgen's authentication: an in-process
// issuer that signs tokens with keys it publishes as a JWKS, and a real
// OAuth authorization server (npm oidc-provider) run with node.
package authtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// Issuer signs ES256 tokens and serves its public keys at JWKSURL.
type Issuer struct {
	// Name is the issuer identifier put in `iss`.
	Name string
	// JWKSURL serves the key set.
	JWKSURL string
	// Fetches counts the requests for the key set.
	Fetches atomic.Int64

	mu   sync.Mutex
	keys map[string]*ecdsa.PrivateKey // by kid
	pub  []string                     // kids published
}

// NewIssuer starts an issuer publishing one key, "k1". It stops with the test.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is := &Issuer{Name: "https://issuer.test", keys: map[string]*ecdsa.PrivateKey{}}
	is.AddKey(t, "k1", true)
	ts := httptest.NewServer(http.HandlerFunc(is.serveJWKS))
	t.Cleanup(ts.Close)
	is.JWKSURL = ts.URL + "/jwks"
	return is
}

// AddKey creates a signing key; published says whether the JWKS lists it.
func (is *Issuer) AddKey(t testing.TB, kid string, published bool) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys[kid] = k
	if published {
		is.pub = append(is.pub, kid)
	}
}

// PublicKey returns the public key of kid.
func (is *Issuer) PublicKey(kid string) *ecdsa.PublicKey {
	is.mu.Lock()
	defer is.mu.Unlock()
	return &is.keys[kid].PublicKey
}

func (is *Issuer) serveJWKS(w http.ResponseWriter, r *http.Request) {
	is.Fetches.Add(1)
	is.mu.Lock()
	defer is.mu.Unlock()
	set := jwkset.NewMemoryStorage()
	for _, kid := range is.pub {
		jwk, err := jwkset.NewJWKFromKey(&is.keys[kid].PublicKey, jwkset.JWKOptions{
			Metadata: jwkset.JWKMetadataOptions{KID: kid, ALG: jwkset.AlgES256, USE: jwkset.UseSig}})
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		_ = set.KeyWrite(r.Context(), jwk)
	}
	raw, err := set.JSONPublic(r.Context())
	if err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(raw)
}

// Claims returns valid claims for audience with scope, expiring in 5m.
func (is *Issuer) Claims(audience, scope string) jwt.MapClaims {
	now := time.Now()
	return jwt.MapClaims{"iss": is.Name, "sub": "alice", "aud": audience, "scope": scope,
		"client_id": "test-client", "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()}
}

// Sign signs claims with key kid (ES256).
func (is *Issuer) Sign(t testing.TB, kid string, claims jwt.MapClaims) string {
	t.Helper()
	return is.SignWithHeader(t, kid, claims, nil)
}

// SignWithHeader signs claims as Sign does, with extra protected header
// parameters (such as crit).
func (is *Issuer) SignWithHeader(t testing.TB, kid string, claims jwt.MapClaims, header map[string]any) string {
	t.Helper()
	is.mu.Lock()
	k := is.keys[kid]
	is.mu.Unlock()
	tok := jwt.NewWithClaims(jwt.SigningMethodES256, claims)
	for name, v := range header {
		tok.Header[name] = v
	}
	tok.Header["kid"] = kid
	tok.Header["typ"] = "at+jwt"
	s, err := tok.SignedString(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// JSON marshals v, failing the test on error.
func JSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
