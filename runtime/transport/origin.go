package transport

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// loopbackHosts are the host names always accepted in Host and Origin.
var loopbackHosts = []string{"localhost", "127.0.0.1", "::1"}

// originGuard checks the Host and Origin headers of every request against
// an allow-list: the loopback names, plus what the config adds. It protects
// a server on a developer's machine from DNS rebinding and from web pages
// the developer happens to visit.
type originGuard struct {
	hosts   []string // host or host:port, lower case; "*" for any
	origins []string // scheme://host[:port], lower case; "*" for any
}

func newOriginGuard(hosts, origins []string) *originGuard {
	g := &originGuard{}
	for _, h := range hosts {
		g.hosts = append(g.hosts, strings.ToLower(strings.Trim(h, "[]")))
	}
	for _, o := range origins {
		g.origins = append(g.origins, strings.TrimSuffix(strings.ToLower(o), "/"))
	}
	return g
}

// check returns why r must be refused, or nil.
func (g *originGuard) check(r *http.Request) error {
	if !g.hostAllowed(r.Host) {
		return fmt.Errorf("host %q is not allowed", r.Host)
	}
	origin := header(r.Header, "Origin")
	if origin == "" {
		return nil // not a browser: nothing to protect from
	}
	if !g.originAllowed(origin) {
		return fmt.Errorf("origin %q is not allowed", origin)
	}
	return nil
}

func (g *originGuard) hostAllowed(hostport string) bool {
	host := strings.ToLower(hostport)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "" {
		return false
	}
	if isLoopback(host) {
		return true
	}
	for _, a := range g.hosts {
		if a == "*" || a == host || a == strings.ToLower(hostport) {
			return true
		}
	}
	return false
}

func (g *originGuard) originAllowed(origin string) bool {
	origin = strings.ToLower(origin)
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if isLoopback(u.Hostname()) {
		return true
	}
	for _, a := range g.origins {
		if a == "*" || a == origin {
			return true
		}
	}
	return false
}

func isLoopback(host string) bool {
	for _, l := range loopbackHosts {
		if host == l {
			return true
		}
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
