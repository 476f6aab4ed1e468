package auth

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Limits of the introspection cache.
const (
	introspectionCacheMax = 10000
	inactiveCacheFor      = 10 * time.Second // a refused token is asked about again after this
	maxIntrospectionBody  = 1 << 20
)

// introspector checks opaque tokens with an RFC 7662 endpoint and caches
// the answers by the token's SHA-256, until the token expires and at most
// maxAge.
type introspector struct {
	url, clientID, secret string
	issuer                string
	audiences             []string
	scopesClaim           string
	maxAge                time.Duration
	client                *http.Client

	mu    sync.Mutex
	cache map[[32]byte]introspected
}

type introspected struct {
	caller *Caller // nil: inactive
	exp    time.Time
	until  time.Time
}

func (v *introspector) verify(ctx context.Context, raw string) (*Caller, time.Time, error) {
	key := sha256.Sum256([]byte(raw))
	now := time.Now()
	v.mu.Lock()
	e, ok := v.cache[key]
	v.mu.Unlock()
	if !ok || now.After(e.until) {
		var err error
		if e, err = v.ask(ctx, raw, now); err != nil {
			return nil, time.Time{}, err
		}
		v.store(key, e, now)
	}
	if e.caller == nil {
		return nil, time.Time{}, fmt.Errorf("%w: the token is not active", ErrInvalidToken)
	}
	return NewCaller(*e.caller, raw), e.exp, nil
}

func (v *introspector) store(key [32]byte, e introspected, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.cache) >= introspectionCacheMax {
		for k, old := range v.cache {
			if now.After(old.until) {
				delete(v.cache, k)
			}
		}
		if len(v.cache) >= introspectionCacheMax {
			clear(v.cache)
		}
	}
	v.cache[key] = e
}

// ask posts the token to the endpoint and judges the answer.
func (v *introspector) ask(ctx context.Context, raw string, now time.Time) (introspected, error) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	form := url.Values{"token": {raw}, "token_type_hint": {"access_token"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.url, strings.NewReader(form.Encode()))
	if err != nil {
		return introspected{}, fmt.Errorf("%w: introspection: %v", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(url.QueryEscape(v.clientID), url.QueryEscape(v.secret))
	resp, err := v.client.Do(req)
	if err != nil {
		return introspected{}, fmt.Errorf("%w: introspection: %v", ErrUnavailable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return introspected{}, fmt.Errorf("%w: introspection answered %s", ErrUnavailable, resp.Status)
	}
	var claims map[string]any
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxIntrospectionBody)).Decode(&claims); err != nil {
		return introspected{}, fmt.Errorf("%w: introspection answer: %v", ErrUnavailable, err)
	}
	return v.judge(claims, now), nil
}

// judge turns an introspection answer into a cache entry: active, issued
// by the issuer, for this server's audience, not expired, with a subject.
func (v *introspector) judge(claims map[string]any, now time.Time) introspected {
	inactive := introspected{until: now.Add(min(v.maxAge, inactiveCacheFor))}
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
	c := &Caller{Subject: sub, ClientID: cid, Scopes: scopesOf(claims[v.scopesClaim]), Claims: claims}
	return introspected{caller: c, exp: exp, until: minTime(exp, now.Add(v.maxAge))}
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
