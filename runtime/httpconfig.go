package runtime

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// HTTP returns the config's `server.http` section, nil when it has none.
// Package transport reads its listen address and options from it.
func (s *Server) HTTP() *spec.HTTP { return s.http }

// Auth returns the guard that authenticates HTTP requests
// (`server.http.auth`), nil when the config has none.
func (s *Server) Auth() *auth.Guard { return s.auth }

// TLS returns the certificate files of `server.http.tls`, resolved against
// the config file's directory; nil when the config has none.
func (s *Server) TLS() *spec.TLS { return s.tls }

// ServesHTTP reports whether the config asks to be served over HTTP (it
// sets server.http.addr), so that `mcpgen serve` without --http serves HTTP
// rather than stdio.
func (s *Server) ServesHTTP() bool { return s.http != nil && s.http.Addr != "" }

// httpConfig checks the `server.http` section of f.
func (b *builder) httpConfig(f *load.File, h *spec.HTTP) {
	b.srv.http = h
	for i, host := range h.AllowedHosts {
		if host == "" || strings.ContainsAny(host, "/ ") {
			b.diag(f, load.Error, fmt.Sprintf("server.http.allowed_hosts[%d]", i),
				fmt.Sprintf("%q is not a host name or host:port", host), "e.g. mcp.example.com")
		}
	}
	for i, o := range h.AllowedOrigins {
		u, err := url.Parse(o)
		if o != "*" && (err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || strings.Trim(u.Path, "/") != "") {
			b.diag(f, load.Error, fmt.Sprintf("server.http.allowed_origins[%d]", i),
				fmt.Sprintf("%q is not an origin", o), "an origin is scheme://host[:port], e.g. https://app.example.com")
		}
	}
	for i, p := range h.TrustedProxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			if _, err := netip.ParseAddr(p); err != nil {
				b.diag(f, load.Error, fmt.Sprintf("server.http.trusted_proxies[%d]", i),
					fmt.Sprintf("%q is not an IP address or a CIDR prefix", p), "e.g. 10.0.0.0/8 or 192.0.2.10")
			}
		}
	}
	if h.MaxSessions < 0 {
		b.errorf(f, "server.http.max_sessions", "max_sessions cannot be negative")
	}
	if h.Addr != "" {
		if _, _, err := net.SplitHostPort(h.Addr); err != nil {
			b.diag(f, load.Error, "server.http.addr", fmt.Sprintf("%q is not host:port", h.Addr), "e.g. 127.0.0.1:8080")
		}
	}
	b.authConfig(f, h)
	if h.TLS != nil {
		b.tlsConfig(f, h.TLS)
	}
}

// Stdio returns the config's `server.stdio` section, nil when it has none.
// Package transport reads its options from it.
func (s *Server) Stdio() *spec.Stdio { return s.stdio }
