package auth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/spec"
)

// Errors of Guard.Authenticate.
var (
	// ErrInvalidToken: the credential is not a valid token for this server
	// (nor an API key). The answer is 401 invalid_token.
	ErrInvalidToken = errors.New("invalid token")
	// ErrUnavailable: the keys or the introspection endpoint could not be
	// reached, so the credential could not be checked. The answer is 503:
	// a 401 would send clients through authorization again for nothing.
	ErrUnavailable = errors.New("token verification unavailable")
)

// Defaults of the configuration.
const (
	DefaultLeeway           = 30 * time.Second
	MaxLeeway               = 5 * time.Minute
	DefaultScopesClaim      = "scope"
	DefaultRefreshLimit     = 30 * time.Second
	DefaultIntrospectionAge = 5 * time.Minute
)

// DefaultAlgorithms are the signature algorithms accepted when the config
// names none.
var DefaultAlgorithms = []string{"RS256", "ES256"}

// Guard authenticates the requests of one HTTP endpoint: it turns a bearer
// credential into a Caller, answers 401/403 challenges, and serves the
// protected resource metadata (RFC 9728).
type Guard struct {
	resource string   // canonical URL of the endpoint; "" without OAuth
	issuer   string   // "" without OAuth
	required []string // scopes every request needs
	stepUp   bool     // answer a lacking item scope with 403 (else MCP refuses it)
	keys     apiKeys
	implies  hierarchy // scopes granted along with others
	jwt      *jwtVerifier
	intro    *introspector
	logger   *slog.Logger
	stop     context.CancelFunc
}

// Options configure New.
type Options struct {
	// Logger receives authentication failures (never a credential).
	Logger *slog.Logger
	// Client fetches keys, metadata and introspection answers. Defaults to
	// a client that follows no redirects.
	Client *http.Client
}

// New returns a guard for cfg, which the config loader has checked. It does
// no I/O: keys are fetched when the first token arrives. Close it to stop
// refreshing them.
func New(cfg *spec.Auth, opts Options) (*Guard, error) {
	if cfg.OAuth == nil && len(cfg.APIKeys) == 0 {
		return nil, errors.New("auth needs oauth or api_keys")
	}
	g := &Guard{resource: strings.TrimSuffix(cfg.Resource, "/"), required: cfg.RequiredScopes,
		logger: cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)),
		stepUp: cfg.OnInsufficientScope != "tool_error", implies: newHierarchy(cfg.Implies)}
	for _, k := range cfg.APIKeys {
		g.keys = append(g.keys, newAPIKey(k.Name, k.Key, g.implies.expand(k.Scopes)))
	}
	ctx, stop := context.WithCancel(context.Background())
	g.stop = stop
	if cfg.OAuth != nil {
		client := opts.Client
		if client == nil {
			client = &http.Client{CheckRedirect: noRedirects, Timeout: fetchTimeout}
		}
		g.oauth(ctx, cfg, client)
	}
	return g, nil
}

func (g *Guard) oauth(ctx context.Context, cfg *spec.Auth, client *http.Client) {
	o := cfg.OAuth
	g.issuer = o.Issuer
	aud := strings.TrimSuffix(cmp.Or(o.Audience, cfg.Resource), "/")
	audiences := []string{aud, aud + "/"} // issuers differ on the trailing slash
	algs := o.Algorithms
	if len(algs) == 0 {
		algs = DefaultAlgorithms
	}
	leeway := time.Duration(o.Leeway)
	if leeway == 0 {
		leeway = DefaultLeeway
	}
	claim := cmp.Or(o.ScopesClaim, DefaultScopesClaim)
	keys := &keySource{issuer: o.Issuer, url: o.JWKSURL, client: client, ctx: ctx,
		refreshLimit: cmp.Or(time.Duration(o.JWKSRefreshLimit), DefaultRefreshLimit)}
	g.jwt = newJWTVerifier(keys, o.Issuer, audiences, algs, leeway, claim)
	g.jwt.implies = g.implies
	if in := o.Introspection; in != nil {
		g.intro = newIntrospector(&introspector{url: in.URL, clientID: in.ClientID, secret: in.ClientSecret, issuer: o.Issuer,
			audiences: audiences, scopesClaim: claim, implies: g.implies, client: client,
			maxAge: cmp.Or(time.Duration(in.Cache), DefaultIntrospectionAge)})
	}
}

// Implied returns scopes with the scopes they imply (`implies`) added,
// as the scopes of a caller this guard admits are; for callers made
// without a credential, such as a test's.
func (g *Guard) Implied(scopes []string) []string {
	if g == nil {
		return scopes
	}
	return g.implies.expand(scopes)
}

// CountsClients reports whether the guard limits what one client address
// can cause (it checks opaque tokens with the provider), and so wants
// WithClient on a request's context.
func (g *Guard) CountsClients() bool { return g.intro != nil }

// Close stops refreshing keys.
func (g *Guard) Close() error {
	g.stop()
	return nil
}

// Authenticate returns the caller a credential stands for, and when that
// stops being true (zero for API keys). Errors wrap ErrInvalidToken or
// ErrUnavailable.
func (g *Guard) Authenticate(ctx context.Context, cred string) (*Caller, time.Time, error) {
	if len(g.keys) > 0 {
		if c := g.keys.match(credentialDigest(cred)); c != nil {
			return c, time.Time{}, nil
		}
	}
	switch {
	case g.jwt != nil && looksLikeJWT(cred):
		return g.jwt.verify(ctx, cred)
	case g.intro != nil:
		return g.intro.verify(ctx, cred)
	}
	return nil, time.Time{}, fmt.Errorf("%w: not a known key or token", ErrInvalidToken)
}
