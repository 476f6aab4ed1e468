package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"golang.org/x/sync/singleflight"
)

// Limits of introspection: what bogus tokens can make the server ask the
// provider. A refused token is remembered; one client address causes at
// most introspectPerClient calls; at most maxIntrospecting run at once,
// and a check waits at most introspectWait for its turn; the same token
// checked by many requests at once is asked about once.
const (
	inactiveCacheFor     = 10 * time.Second // a refused token is asked about again after this
	maxIntrospectionBody = 1 << 20
	maxIntrospecting     = 8
	introspectWait       = 2 * time.Second
)

// introspectPerClient bounds the introspection calls one client address
// causes: a burst of 10, then 2 a second. A client whose token is valid
// asks once and is answered from the cache until the token expires.
var introspectPerClient = ratelimit.Limit{Rate: 2, Burst: 10}

// ThrottledError is a credential not checked because its client caused
// too many checks lately; it may try again after RetryAfter.
type ThrottledError struct{ RetryAfter time.Duration }

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("too many unknown tokens from this address; retry in %s", e.RetryAfter.Round(time.Second))
}

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

	cache     *tokenCache
	perClient *ratelimit.Memory
	slots     chan struct{} // one per introspection call in flight
	flight    singleflight.Group
}

// newIntrospector fills in v's caches and limits.
func newIntrospector(v *introspector) *introspector {
	v.cache, v.perClient, v.slots = newTokenCache(), ratelimit.NewMemory(), make(chan struct{}, maxIntrospecting)
	return v
}

// verify returns the caller of an opaque token.
func (v *introspector) verify(ctx context.Context, raw string) (*Caller, time.Time, error) {
	now := time.Now()
	e, ok := v.cache.get(raw, now)
	if !ok {
		if wait, _ := v.perClient.Allow(ctx, clientFrom(ctx), introspectPerClient); wait > 0 {
			return nil, time.Time{}, &ThrottledError{RetryAfter: wait}
		}
		got, err, _ := v.flight.Do(raw, func() (any, error) { return v.askInTurn(ctx, raw, now) })
		if err != nil {
			return nil, time.Time{}, err
		}
		e = got.(verdict)
	}
	if e.caller == nil {
		return nil, time.Time{}, fmt.Errorf("%w: the token is not active", ErrInvalidToken)
	}
	return e.caller, e.exp, nil
}

// askInTurn asks about raw once one of the slots is free, and caches the
// answer.
func (v *introspector) askInTurn(ctx context.Context, raw string, now time.Time) (verdict, error) {
	t := time.NewTimer(introspectWait)
	defer t.Stop()
	select {
	case v.slots <- struct{}{}:
		defer func() { <-v.slots }()
	case <-t.C:
		return verdict{}, fmt.Errorf("%w: %d introspection calls already running", ErrUnavailable, maxIntrospecting)
	case <-ctx.Done():
		return verdict{}, fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
	}
	e, err := v.ask(ctx, raw, now)
	if err == nil {
		v.cache.put(raw, e, now)
	}
	return e, err
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

type clientKey struct{}

// WithClient records on ctx the address a request came from (without its
// port), for the limits on what one client can cause. The HTTP transport
// sets it, from a trusted proxy's X-Forwarded-For when there is one;
// without it, a request is its connection's address.
func WithClient(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, addr)
}

// withClient records r's connection address, unless WithClient did.
func withClient(ctx context.Context, r *http.Request) context.Context {
	if _, ok := ctx.Value(clientKey{}).(string); ok {
		return ctx
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return WithClient(ctx, host)
}

// clientFrom returns the address WithClient recorded ("" when none: calls
// that did not come over HTTP share one budget).
func clientFrom(ctx context.Context) string {
	s, _ := ctx.Value(clientKey{}).(string)
	return s
}
