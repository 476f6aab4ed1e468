package httpkind

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"golang.org/x/sync/singleflight"
)

// RFC 8693 names.
const (
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeAccess    = "urn:ietf:params:oauth:token-type:access_token"
)

// maxExchanged bounds the exchanged tokens kept; beyond it, expired ones
// are dropped, then the whole cache if that was not enough.
const maxExchanged = 10000

// exchanger gets tokens for a backend on behalf of each caller with OAuth
// 2.0 Token Exchange (RFC 8693), and caches them until they expire.
//
// The cache key is the caller's subject and a digest of the caller's token:
// a token the caller obtained with fewer scopes never gets a backend token
// exchanged from another of their tokens. The audience is the same for
// every entry (one exchanger per backend).
type exchanger struct {
	url, id, secret, form string

	now    func() time.Time // time.Now; tests move it
	flight singleflight.Group
	mu     sync.Mutex
	cache  map[string]exchanged
}

type exchanged struct {
	token   string
	expires time.Time // zero: no expiry given
}

// Errors of a call that has no token to exchange.
var (
	errNoCaller      = errors.New("token exchange acts for the authenticated caller, and the request has none")
	errNoCallerToken = errors.New("token exchange needs the caller's OAuth token; the caller authenticated without one (an API key)")
)

func exchangeAuth(env handlers.BuildEnv, x *TokenExchange) *authenticator {
	const field = "auth.token_exchange"
	if !checkTokenURL(env, field+".token_url", x.TokenURL) {
		return nil
	}
	if x.Audience == "" && x.Resource == "" {
		env.Diag(field, "give audience or resource: the token is for one backend, never for any")
		return nil
	}
	form := url.Values{"grant_type": {grantTokenExchange}, "subject_token_type": {tokenTypeAccess},
		"requested_token_type": {tokenTypeAccess}}
	for k, v := range map[string]string{"audience": x.Audience, "resource": x.Resource, "scope": strings.Join(x.Scopes, " ")} {
		if v != "" {
			form.Set(k, v)
		}
	}
	return &authenticator{header: "Authorization", exchange: &exchanger{url: x.TokenURL, id: x.ClientID,
		secret: x.ClientSecret, form: form.Encode(), now: time.Now, cache: map[string]exchanged{}}}
}

// token returns a token for the caller on ctx: cached, or exchanged now.
// Concurrent calls of one caller wait for one exchange.
func (x *exchanger) token(ctx context.Context, c *http.Client) (string, error) {
	caller := auth.CallerFrom(ctx)
	switch {
	case caller == nil:
		return "", errNoCaller
	case caller.Token() == "":
		return "", errNoCallerToken
	}
	key := cacheKey(caller)
	if tok, ok := x.cached(key); ok {
		return tok, nil
	}
	ch := x.flight.DoChan(key, func() (any, error) {
		// the exchange outlives a caller that gives up: others may wait on it
		fetchCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultTimeout)
		defer cancel()
		tok, ttl, err := x.fetch(fetchCtx, c, caller.Token())
		if err != nil {
			return "", err
		}
		x.store(key, tok, ttl)
		return tok, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return "", r.Err
		}
		return r.Val.(string), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func cacheKey(c *auth.Caller) string {
	sum := sha256.Sum256([]byte(c.Token()))
	return c.Subject + "\x00" + string(sum[:])
}

func (x *exchanger) cached(key string) (string, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.cache[key]
	if !ok || (!e.expires.IsZero() && !x.now().Before(e.expires)) {
		return "", false
	}
	return e.token, true
}

func (x *exchanger) store(key, tok string, ttl time.Duration) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.cache) >= maxExchanged {
		now := x.now()
		for k, e := range x.cache {
			if !e.expires.IsZero() && !now.Before(e.expires) {
				delete(x.cache, k)
			}
		}
		if len(x.cache) >= maxExchanged {
			clear(x.cache)
		}
	}
	e := exchanged{token: tok}
	if ttl > 0 {
		e.expires = x.now().Add(max(ttl-expirySkew, ttl/2))
	}
	x.cache[key] = e
}

// invalidate drops the caller's cached token (after a 401).
func (x *exchanger) invalidate(ctx context.Context) {
	if c := auth.CallerFrom(ctx); c != nil {
		x.mu.Lock()
		delete(x.cache, cacheKey(c))
		x.mu.Unlock()
	}
}

// fetch exchanges subject, the caller's token, for a token for the backend.
func (x *exchanger) fetch(ctx context.Context, c *http.Client, subject string) (string, time.Duration, error) {
	body, status, err := postToken(ctx, c, x.url, x.id, x.secret, x.form+"&subject_token="+url.QueryEscape(subject))
	if err != nil {
		return "", 0, fmt.Errorf("token exchange: %w", err)
	}
	if status/100 != 2 {
		return "", 0, fmt.Errorf("token exchange: HTTP %d %s", status, oauthError(body, subject))
	}
	var tr tokenResponse
	switch {
	case json.Unmarshal(body, &tr) != nil || tr.AccessToken == "":
		return "", 0, errors.New("token exchange: the response holds no access_token")
	case tr.IssuedTokenType != "" && tr.IssuedTokenType != tokenTypeAccess:
		return "", 0, fmt.Errorf("token exchange: issued a %s, not an access token", tr.IssuedTokenType)
	case tr.TokenType != "" && !strings.EqualFold(tr.TokenType, "bearer"):
		return "", 0, fmt.Errorf("token exchange: token_type %q is not supported; want Bearer", tr.TokenType)
	}
	return tr.AccessToken, tr.ttl(), nil
}

// oauthError summarises an OAuth error response: its error code and
// description, never anything else the body holds. An authorization server
// may quote the token it refused: hide is masked, before the description is
// shortened.
func oauthError(body []byte, hide string) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == "" {
		return "(no OAuth error in the response)"
	}
	if e.Description != "" {
		e.Description = strings.ReplaceAll(e.Description, hide, "****")
		return fmt.Sprintf("%s: %s", strings.ReplaceAll(e.Error, hide, "****"), summarize(e.Description))
	}
	return strings.ReplaceAll(e.Error, hide, "****")
}
