package build

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// minAPIKey is the shortest API key accepted.
const minAPIKey = 16

// authConfig checks `server.http.auth` and builds the guard the HTTP
// endpoint uses. Nothing is fetched: keys come with the first token.
func (b *builder) authConfig(f *load.File, h *spec.HTTP) {
	if h.Auth == nil {
		if _, _, err := net.SplitHostPort(h.Addr); err == nil && !LoopbackAddr(h.Addr) {
			b.diag(f, load.Warning, "server.http.addr", fmt.Sprintf("%s is reachable from other machines and no auth is configured: anyone who reaches it can call every tool", h.Addr),
				"add server.http.auth (oauth or api_keys), or listen on 127.0.0.1")
		}
		return
	}
	a, p := h.Auth, "server.http.auth"
	if a.OAuth == nil && len(a.APIKeys) == 0 {
		b.diag(f, load.Error, p, "auth needs oauth or api_keys", "see the README's \"Secure remote serving\" section")
		return
	}
	b.scopeList(f, p+".required_scopes", a.RequiredScopes)
	if a.OAuth != nil {
		b.oauthConfig(f, a)
	} else if f.Checkable(p + ".resource") {
		b.absURL(f, p+".resource", a.Resource)
	}
	b.apiKeys(f, a.APIKeys)
	g, err := auth.New(a, auth.Options{Logger: b.opts.Logger})
	if err != nil {
		b.errorf(f, p, "%v", err)
		return
	}
	b.plan.Auth = g
	b.plan.Closers = append(b.plan.Closers, g)
}

func (b *builder) oauthConfig(f *load.File, a *spec.Auth) {
	o, p := a.OAuth, "server.http.auth.oauth"
	if !f.Given("server.http.auth.resource") {
		b.diag(f, load.Error, "server.http.auth", "oauth needs `resource`, this server's URL as clients reach it",
			"e.g. resource: https://mcp.example.com/mcp")
	}
	for _, u := range []struct{ path, v string }{{"server.http.auth.resource", a.Resource}, {p + ".issuer", o.Issuer},
		{p + ".audience", o.Audience}, {p + ".jwks_url", o.JWKSURL}} {
		if f.Checkable(u.path) {
			b.absURL(f, u.path, u.v)
		}
	}
	for i, alg := range o.Algorithms {
		if !slices.Contains(auth.PublicKeyAlgorithms, alg) {
			b.diag(f, load.Error, fmt.Sprintf("%s.algorithms[%d]", p, i), fmt.Sprintf("%q is not an accepted signature algorithm", alg),
				"use public-key algorithms only: "+strings.Join(auth.PublicKeyAlgorithms, ", "))
		}
	}
	if l := time.Duration(o.Leeway); l < 0 || l > auth.MaxLeeway {
		b.diag(f, load.Error, p+".leeway", fmt.Sprintf("leeway must be between 0 and %s", auth.MaxLeeway), "")
	}
	if o.JWKSRefreshLimit < 0 {
		b.errorf(f, p+".jwks_refresh_limit", "jwks_refresh_limit cannot be negative")
	}
	if in := o.Introspection; in != nil && f.Checkable(p+".introspection.url") {
		b.absURL(f, p+".introspection.url", in.URL)
	}
}

func (b *builder) apiKeys(f *load.File, keys []*spec.APIKey) {
	names := map[string]bool{}
	secrets := map[string]bool{}
	for i, k := range keys {
		p := fmt.Sprintf("server.http.auth.api_keys[%d]", i)
		if k == nil {
			b.errorf(f, p, "empty API key entry")
			continue
		}
		if names[k.Name] {
			b.errorf(f, p+".name", "API key %q is defined twice", k.Name)
		}
		names[k.Name] = true
		switch {
		case !f.Checkable(p + ".key"):
		case len(k.Key) < minAPIKey:
			b.diag(f, load.Error, p+".key", fmt.Sprintf("an API key needs at least %d characters", minAPIKey),
				"generate one, e.g. openssl rand -hex 32, and pass it from the environment: key: ${MY_API_KEY}")
		case secrets[k.Key]:
			b.errorf(f, p+".key", "two API keys have the same value")
		}
		secrets[k.Key] = true
		b.scopeList(f, p+".scopes", k.Scopes)
	}
}

// absURL reports u unless it is an absolute http(s) URL without fragment.
func (b *builder) absURL(f *load.File, path, u string) {
	pu, err := url.Parse(u)
	if err != nil || pu.Host == "" || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Fragment != "" {
		b.diag(f, load.Error, path, fmt.Sprintf("%q is not an absolute http(s) URL", u), "e.g. https://idp.example.com")
	}
}

// scopeList reports scopes that cannot travel in a challenge: empty, or
// holding a space, a quote or a backslash (RFC 6749 §3.3).
func (b *builder) scopeList(f *load.File, path string, scopes []string) {
	for i, s := range scopes {
		if s == "" || strings.ContainsAny(s, " \"\\") {
			b.diag(f, load.Error, fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("%q is not a scope", s),
				"a scope is one word without quotes or backslashes, e.g. orders:read")
		}
	}
}

// tlsConfig checks `server.http.tls` and resolves its files against the
// config file's directory.
func (b *builder) tlsConfig(f *load.File, t *spec.TLS) {
	b.plan.TLS = &spec.TLS{}
	if t.CertFile != "" {
		b.plan.TLS.CertFile = b.path(f, t.CertFile)
	}
	if t.KeyFile != "" {
		b.plan.TLS.KeyFile = b.path(f, t.KeyFile)
	}
	if t.CertFile == "" || t.KeyFile == "" {
		return // the decoder reported the missing one
	}
	if _, err := tls.LoadX509KeyPair(b.plan.TLS.CertFile, b.plan.TLS.KeyFile); err != nil {
		b.diag(f, load.Error, "server.http.tls", fmt.Sprintf("cannot load the certificate: %v", err),
			"cert_file is a PEM certificate chain and key_file its PEM private key")
	}
}

// LoopbackAddr reports whether a listen address (host:port) is on
// loopback only, out of reach of other machines.
func LoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
