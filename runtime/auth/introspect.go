package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Limits of introspection.
const (
	inactiveCacheFor     = 10 * time.Second // a refused token is asked about again after this
	maxIntrospectionBody = 1 << 20
)

// introspector checks opaque tokens with an RFC 7662 endpoint and caches
// the answers by the token's SHA-256, until the token expires and at most
// maxAge.
type introspector struct {
	url, clientID, secret string
	issuer                string
	audiences             []string
	scopesClaim           string
	implies               hierarchy
	maxAge                time.Duration
	client                *http.Client

	cache *tokenCache
}

// verify returns the caller of an opaque token.
func (v *introspector) verify(ctx context.Context, raw string) (*Caller, time.Time, error) {
	now := time.Now()
	e, ok := v.cache.get(raw, now)
	if !ok {
		var err error
		if e, err = v.ask(ctx, raw, now); err != nil {
			return nil, time.Time{}, err
		}
		v.cache.put(raw, e, now)
	}
	if e.caller == nil {
		return nil, time.Time{}, fmt.Errorf("%w: the token is not active", ErrInvalidToken)
	}
	return e.caller, e.exp, nil
}

// ask posts the token to the endpoint and judges the answer.
func (v *introspector) ask(ctx context.Context, raw string, now time.Time) (verdict, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.url, strings.NewReader(form.Encode()))
	if err != nil {
		return verdict{}, fmt.Errorf("%w: introspection: %v", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(v.clientID), url.QueryEscape(v.secret))
	resp, err := v.client.Do(req)
	if err != nil {
		return verdict{}, fmt.Errorf("%w: introspection: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return verdict{}, fmt.Errorf("%w: introspection answered %s", ErrUnavailable, resp.Status)
	}
	var claims map[string]any
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxIntrospectionBody)).Decode(&claims); err != nil {
		return verdict{}, fmt.Errorf("%w: introspection answer: %v", ErrUnavailable, err)
	}
	return v.judge(claims, raw, now), nil
}

// judge turns an introspection answer into a cache entry: active, issued
// by the issuer, for this server's audience, not expired, with a subject.
func (v *introspector) judge(claims map[string]any, raw string, now time.Time) verdict {
	inactive := verdict{until: now.Add(min(v.maxAge, inactiveCacheFor))}
	if active, _ := claims["active"].(bool); !active {
		return inactive
	}
	if iss, ok := claims["iss"].(string); ok && iss != v.issuer {
		return inactive
	}
	if !audienceMatches(claims["aud"], v.audiences) {
		return inactive
	}
	expf, ok := claims["exp"].(float64)
	exp := time.Unix(int64(expf), 0)
	if !ok || !now.Before(exp) {
		return inactive
	}
	sub, _ := claims["sub"].(string)
	cid := clientID(claims)
	if sub == "" {
		sub = cid // client-credentials tokens may name only the client
	}
	if sub == "" {
		return inactive
	}
	c := issuedCaller(Caller{Subject: sub, ClientID: cid, Scopes: v.implies.expand(scopesOf(claims[v.scopesClaim])), Claims: claims}, raw, v.issuer, exp)
	return verdict{caller: c, exp: exp, until: minTime(exp, now.Add(v.maxAge))}
}

// audienceMatches reports whether an `aud` value (a string or an array)
// holds one of want.
func audienceMatches(aud any, want []string) bool {
	var got []string
	switch a := aud.(type) {
	case string:
		got = []string{a}
	case []any:
		for _, s := range a {
			if s, ok := s.(string); ok {
				got = append(got, s)
			}
		}
	}
	for _, g := range got {
		for _, w := range want {
			if g == w {
				return true
			}
		}
	}
	return false
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
