package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
)

// NeedFunc returns the scopes one MCP request needs besides the guard's
// required ones: for tools/call and prompts/get, name is the tool or
// prompt; for resources/read, it is the URI.
type NeedFunc func(method, name string) []string

// Middleware authenticates every request before next (the go-sdk handler)
// sees it: Admit, then ItemScopes. Without a credential the answer is 401
// with a challenge naming the metadata; with a bad or expired one 401
// invalid_token; with a malformed header 400; without the scopes the
// request needs, 403 insufficient_scope naming all of them. An accepted
// request carries its Caller to the go-sdk as its TokenInfo (see
// CallerFromTokenInfo), which also binds a session to its user: another
// caller presenting the session's ID gets 403.
//
// A server that derives a context for each request anyway calls Admit
// itself and serves ItemScopes, so that the request is copied once for
// both (see the HTTP transport).
func (g *Guard) Middleware(next http.Handler, need NeedFunc) http.Handler {
	items := g.ItemScopes(next, need)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctx, ok := g.Admit(r.Context(), w, r); ok {
			items.ServeHTTP(w, r.WithContext(ctx))
		}
	})
}

// Admit authenticates r, before any of its body is read, and returns ctx
// carrying the caller's TokenInfo, for the go-sdk and ItemScopes. When r
// cannot go on, Admit answers it (401, 400, 403, 503) and returns false.
//
// It stores the TokenInfo where the go-sdk's RequireBearerToken would, but
// does not go through that middleware: it would parse the Authorization
// header a second time and copy the request and its context once more for
// a verdict already reached here.
func (g *Guard) Admit(ctx context.Context, w http.ResponseWriter, r *http.Request) (context.Context, bool) {
	_, ti, ok := g.admit(ctx, w, r)
	if !ok {
		return nil, false
	}
	if !ti.Expiration.IsZero() && ti.Expiration.Add(g.leeway()).Before(time.Now()) {
		// A verdict is cached only until its token expires; this is the
		// check the go-sdk's middleware made, kept in case one outlives
		// it.
		g.challenge(w, http.StatusUnauthorized, "invalid_token", g.required, "the access token has expired")
		return nil, false
	}
	return sdkauth.ContextWithTokenInfo(ctx, ti), true
}

// ItemScopes returns next behind the check of the scopes that the MCP
// requests in a POST body need for their items (a NeedFunc), answering 403
// insufficient_scope when the caller lacks any. Requests must come through
// Admit first: one that carries no caller from it is answered 401, so
// that a route served without Admit fails closed.
func (g *Guard) ItemScopes(next http.Handler, need NeedFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := CallerFromTokenInfo(sdkauth.TokenInfoFromContext(r.Context()))
		if c == nil {
			g.challenge(w, http.StatusUnauthorized, "", g.required, "authentication required")
			return
		}
		if r.Method == http.MethodPost && g.stepUp {
			if lacking, items := g.lacking(r, c, need); lacking != nil {
				g.logger.Info("call", "subject", c.Subject, "item", strings.Join(items, " "), "outcome", "denied",
					"needs", strings.Join(lacking, " "))
				g.challenge(w, http.StatusForbidden, "insufficient_scope", lacking, "this request needs more scopes")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// leeway is how long past its expiry a token is still accepted.
func (g *Guard) leeway() time.Duration {
	if g.jwt == nil {
		return 0
	}
	return g.jwt.leeway
}

// admit authenticates r, answering it if it cannot go on.
func (g *Guard) admit(ctx context.Context, w http.ResponseWriter, r *http.Request) (*Caller, *sdkauth.TokenInfo, bool) {
	if g.intro != nil {
		ctx = withClient(ctx, r)
	}
	c, exp, err := g.identify(ctx, r.Header)
	switch {
	case err != nil && throttle(w, err):
		return nil, nil, false
	case errors.Is(err, ErrNoCredential):
		g.challenge(w, http.StatusUnauthorized, "", g.required, "authentication required")
		return nil, nil, false
	case errors.Is(err, ErrMalformed):
		g.challenge(w, http.StatusBadRequest, "invalid_request", nil, err.Error())
		return nil, nil, false
	case errors.Is(err, ErrUnavailable):
		g.logger.Warn("cannot check credentials", "err", err)
		w.Header().Set("Retry-After", "5")
		http.Error(w, "credentials cannot be checked right now; retry later", http.StatusServiceUnavailable)
		return nil, nil, false
	case err != nil:
		g.logger.Info("authentication failed", "remote", r.RemoteAddr, "reason", err)
		g.challenge(w, http.StatusUnauthorized, "invalid_token", g.required, "the access token is invalid")
		return nil, nil, false
	case !c.HasScopes(g.required):
		g.challenge(w, http.StatusForbidden, "insufficient_scope", g.required, "the credential lacks the scopes this server requires")
		return nil, nil, false
	}
	if c.info == nil { // not made by this guard's verifiers
		return c, tokenInfo(c, g.issuer, exp), true
	}
	return c, c.info, true
}

// throttle answers 429 with Retry-After when err is a ThrottledError, and
// reports whether it did. (Its own function: the target errors.As takes
// escapes, and a call with a valid token should not pay for it.)
func throttle(w http.ResponseWriter, err error) bool {
	var t *ThrottledError
	if !errors.As(err, &t) {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(max(time.Second, t.RetryAfter.Round(time.Second))/time.Second)))
	http.Error(w, err.Error(), http.StatusTooManyRequests)
	return true
}

// identify returns the caller that the bearer credential of a request's
// headers stands for (see BearerCredential and Authenticate for the
// errors). A token verified before is found without checking its
// characters again: the cache matches its bytes whole, and they were
// well-formed when it was verified.
func (g *Guard) identify(ctx context.Context, h http.Header) (*Caller, time.Time, error) {
	cred, err := bearerField(h)
	if err != nil {
		return nil, time.Time{}, err
	}
	if c, exp, ok := g.verified(cred); ok {
		return c, exp, nil
	}
	if !isB64Token(cred) {
		return nil, time.Time{}, ErrMalformed
	}
	return g.Authenticate(ctx, cred)
}

// verified returns the caller of a JWT verified before and still valid.
// With API keys it finds nothing: Authenticate matches keys first.
func (g *Guard) verified(cred string) (*Caller, time.Time, bool) {
	if g.jwt == nil || len(g.keys) > 0 {
		return nil, time.Time{}, false
	}
	v, ok := g.jwt.cache.get(cred, time.Now())
	if !ok || v.caller == nil {
		return nil, time.Time{}, false
	}
	return v.caller, v.exp, true
}

// challenge answers with status and a Bearer challenge (RFC 6750 §3):
// the metadata URL, the scopes wanted, and the error code if any.
func (g *Guard) challenge(w http.ResponseWriter, status int, code string, scopes []string, msg string) {
	var params []string
	if code != "" {
		params = append(params, fmt.Sprintf("error=%q", code))
	}
	if len(scopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(scopes, " ")))
	}
	if u := g.MetadataURL(); u != "" {
		params = append(params, fmt.Sprintf("resource_metadata=%q", u))
	}
	if code != "" {
		params = append(params, fmt.Sprintf("error_description=%q", msg))
	}
	ch := "Bearer"
	if len(params) > 0 {
		ch += " " + strings.Join(params, ", ")
	}
	w.Header().Set("WWW-Authenticate", ch)
	http.Error(w, msg, status)
}

// lacking returns every scope the MCP requests in r's body need, required
// ones included, and the items they act on, when c lacks any of those
// scopes; nil when c has them all.
func (g *Guard) lacking(r *http.Request, c *Caller, need NeedFunc) (scopes, items []string) {
	if need == nil {
		return nil, nil
	}
	var calls []call
	if sb, ok := r.Body.(ScannedBody); ok {
		if method, name, ok := sb.Item(); ok {
			if n := need(method, name); len(n) > 0 && !c.HasScopes(n) {
				return g.withRequired(n), []string{method + " " + name}
			}
			return nil, nil
		}
		calls = decodeCalls(sb.Bytes())
	} else {
		calls = peekCalls(r)
	}
	var all []string
	for _, call := range calls {
		all = append(all, need(call.method, call.name)...)
		items = append(items, call.method+" "+call.name)
	}
	if len(all) == 0 || c.HasScopes(all) {
		return nil, nil
	}
	return g.withRequired(all), items
}

// withRequired returns scopes and the guard's required scopes, sorted,
// each once.
func (g *Guard) withRequired(scopes []string) []string {
	all := append(slices.Clone(g.required), scopes...)
	slices.Sort(all)
	return slices.Compact(all)
}
