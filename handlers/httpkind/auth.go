package httpkind

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// authenticator adds credentials to requests.
type authenticator struct {
	header, value string // a header and its value (bearer, basic, api key)
	query         string // a query parameter carrying value
	oauth         *tokenSource
	exchange      *exchanger
	client        *http.Client // fetches OAuth tokens
	hidden        []string     // what must never be shown: tokens, passwords, keys
}

func buildAuth(env handlers.BuildEnv, a *Auth) *authenticator {
	if a == nil {
		return nil
	}
	switch { // the loader checked that exactly one is given
	case a.Bearer != nil:
		return &authenticator{header: "Authorization", value: "Bearer " + *a.Bearer, hidden: []string{*a.Bearer}}
	case a.Basic != nil:
		r := &http.Request{Header: http.Header{}}
		r.SetBasicAuth(a.Basic.Username, a.Basic.Password)
		v := r.Header.Get("Authorization")
		return &authenticator{header: "Authorization", value: v,
			hidden: []string{a.Basic.Password, strings.TrimPrefix(v, "Basic ")}}
	case a.APIKey != nil:
		return apiKeyAuth(env, a.APIKey)
	case a.OAuth2 != nil:
		return oauthAuth(env, a.OAuth2)
	case a.TokenExchange != nil:
		return exchangeAuth(env, a.TokenExchange)
	}
	return nil
}

func apiKeyAuth(env handlers.BuildEnv, k *APIKey) *authenticator {
	if k.Query == "" { // the loader checked that exactly one of header and query is given
		if err := checkHeader(k.Header, k.Value); err != nil {
			env.Diag("auth.api_key", err.Error())
			return nil
		}
		return &authenticator{header: k.Header, value: k.Value, hidden: []string{k.Value}}
	}
	return &authenticator{query: k.Query, value: k.Value, hidden: []string{k.Value}}
}

// checkTokenURL checks a token endpoint at field; it reports false after
// an error.
func checkTokenURL(env handlers.BuildEnv, field, tokenURL string) bool {
	u, err := url.Parse(tokenURL)
	switch {
	case unsetVariable(tokenURL):
		env.Warn(field, fmt.Sprintf("token URL %q has no scheme or host; %s", tokenURL, unsetHint))
		return true
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		env.Diag(field, fmt.Sprintf("invalid token URL %q", tokenURL))
		return false
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		env.Warn(field, "the client secret is sent over plain http")
	}
	return true
}

func oauthAuth(env handlers.BuildEnv, o *OAuth2) *authenticator {
	if !checkTokenURL(env, "auth.oauth2.token_url", o.TokenURL) {
		return nil
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(o.Scopes) > 0 {
		form.Set("scope", strings.Join(o.Scopes, " "))
	}
	for k, v := range o.Params {
		form.Set(k, v)
	}
	return &authenticator{header: "Authorization",
		oauth: &tokenSource{url: o.TokenURL, id: o.ClientID, secret: o.ClientSecret, form: form.Encode()}}
}

func isLoopback(host string) bool {
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

// apply adds the credentials to req.
func (a *authenticator) apply(ctx context.Context, req *http.Request) error {
	switch {
	case a.oauth != nil:
		tok, err := a.oauth.token(ctx, a.client)
		if err != nil {
			return err
		}
		req.Header.Set(a.header, "Bearer "+tok)
	case a.exchange != nil:
		tok, err := a.exchange.token(ctx, a.client)
		if err != nil {
			return err
		}
		req.Header.Set(a.header, "Bearer "+tok)
	case a.query != "":
		q := req.URL.Query()
		q.Set(a.query, a.value)
		req.URL.RawQuery = q.Encode()
	default:
		req.Header.Set(a.header, a.value)
	}
	return nil
}

// mask replaces the credentials in a request about to be printed.
func (a *authenticator) mask(req *http.Request) {
	switch {
	case a.query != "":
		q := req.URL.Query()
		q.Set(a.query, "****")
		req.URL.RawQuery = q.Encode()
	case a.fetches():
		req.Header.Set(a.header, "Bearer ****")
	default:
		scheme, _, found := strings.Cut(a.value, " ")
		if found && a.header == "Authorization" {
			req.Header.Set(a.header, scheme+" ****")
		} else {
			req.Header.Set(a.header, "****")
		}
	}
}

// secrets are the values mask hides, for scrubbing error messages.
func (a *authenticator) secrets() []string {
	if a == nil {
		return nil
	}
	if a.oauth != nil {
		return append([]string{a.oauth.secret}, a.oauth.current()...)
	}
	if a.exchange != nil {
		return []string{a.exchange.secret}
	}
	return a.hidden
}

// fetches reports whether a's tokens come from an authorization server
// (client credentials or token exchange), so that a 401 may mean a revoked
// token worth fetching again.
func (a *authenticator) fetches() bool {
	return a != nil && (a.oauth != nil || a.exchange != nil)
}

// invalidate drops the token a request of this call used (after a 401).
func (a *authenticator) invalidate(ctx context.Context) {
	switch {
	case a.oauth != nil:
		a.oauth.invalidate()
	case a.exchange != nil:
		a.exchange.invalidate(ctx)
	}
}

// maskIn replaces the credentials found in body, the answer to req, by
// ****: the backend's own, and the token exchanged for the caller that req
// carried. It costs a substring search per credential when there is none,
// the usual case.
func (a *authenticator) maskIn(body []byte, req *http.Request) []byte {
	secrets := a.secrets()
	if a != nil && a.exchange != nil {
		secrets = append(secrets, strings.TrimPrefix(req.Header.Get(a.header), "Bearer "))
	}
	for _, secret := range secrets {
		if len(secret) >= 4 && bytes.Contains(body, []byte(secret)) {
			body = bytes.ReplaceAll(body, []byte(secret), []byte("****"))
		}
	}
	return body
}

// tokenSource fetches and caches an OAuth 2.0 client-credentials token.
type tokenSource struct {
	url, id, secret, form string

	mu      sync.Mutex
	tok     string
	expires time.Time
}

// expirySkew renews a token this long before it expires.
const expirySkew = 30 * time.Second

func (t *tokenSource) current() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok == "" {
		return nil
	}
	return []string{t.tok}
}

// invalidate drops the cached token (after a 401).
func (t *tokenSource) invalidate() {
	t.mu.Lock()
	t.tok = ""
	t.mu.Unlock()
}

// token returns a cached token, fetching one when there is none or it is
// about to expire. Concurrent callers wait for one fetch.
func (t *tokenSource) token(ctx context.Context, c *http.Client) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != "" && (t.expires.IsZero() || time.Now().Before(t.expires)) {
		return t.tok, nil
	}
	tok, ttl, err := t.fetch(ctx, c)
	if err != nil {
		return "", err
	}
	t.tok, t.expires = tok, time.Time{}
	if ttl > 0 {
		t.expires = time.Now().Add(max(ttl-expirySkew, ttl/2))
	}
	return tok, nil
}

func (t *tokenSource) fetch(ctx context.Context, c *http.Client) (string, time.Duration, error) {
	body, status, err := postToken(ctx, c, t.url, t.id, t.secret, t.form)
	if err != nil {
		return "", 0, fmt.Errorf("oauth2 token request: %w", err)
	}
	if status/100 != 2 {
		return "", 0, fmt.Errorf("oauth2 token request: HTTP %d %s", status, summarizeBytes(body))
	}
	var tr tokenResponse
	if err := json.Unmarshal(body, &tr); err != nil || tr.AccessToken == "" {
		return "", 0, errors.New("oauth2 token request: the response holds no access_token")
	}
	return tr.AccessToken, tr.ttl(), nil
}

// tokenResponse is the answer of a token endpoint (RFC 6749 section 5.1,
// RFC 8693 section 2.2.1).
type tokenResponse struct {
	AccessToken     string      `json:"access_token"`
	IssuedTokenType string      `json:"issued_token_type"`
	TokenType       string      `json:"token_type"`
	ExpiresIn       json.Number `json:"expires_in"`
}

func (tr *tokenResponse) ttl() time.Duration {
	secs, _ := tr.ExpiresIn.Float64()
	return time.Duration(secs * float64(time.Second))
}

// postToken posts form to a token endpoint, authenticating as client id
// with HTTP basic (RFC 6749 section 2.3.1), and returns the response's body
// (up to 1 MiB) and status.
func postToken(ctx context.Context, c *http.Client, endpoint, id, secret, form string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	// tokens are fetched rarely (they are kept until they expire)
	c = &http.Client{Transport: handlers.Transport(ctx, c.Transport), CheckRedirect: c.CheckRedirect}
	resp, err := c.Do(req)
	if err != nil {
		return nil, 0, transportError(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return body, resp.StatusCode, nil
}
