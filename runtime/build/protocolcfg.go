package build

import (
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/build/paramheader"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/spec"
)

// minStateKey is the shortest request_state.key taken without a warning,
// in bytes.
const minStateKey = 32

// protocolConfig reads the server's caching default and request state
// settings.
func (b *builder) protocolConfig(f *load.File, s *spec.Server) {
	if s.CacheHint != nil {
		b.plan.CacheCfg = s.CacheHint
	}
	if rs := s.RequestState; rs != nil {
		if rs.Key != "" && len(rs.Key) < minStateKey {
			b.diag(f, load.Warning, "server.request_state.key", fmt.Sprintf("the key is %d bytes: a guessable key lets clients forge request states; use at least %d", len(rs.Key), minStateKey),
				"e.g. key: ${MCPGEN_STATE_KEY}, set to the output of `openssl rand -base64 48`")
		}
		b.stateKeySet = rs.Key != ""
		b.plan.States = reqstate.NewSigner([]byte(rs.Key), time.Duration(rs.TTL))
	}
}

// requiredCapabilities joins a tool's `requires` with what its steps need,
// leaving out steps that run only if the client supports them.
func requiredCapabilities(given []string, steps []*plan.Step) []string {
	out := slices.Clone(given)
	for _, st := range steps {
		if c := st.Capability(); c != "" && !st.IfSupported {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// paramHeaders checks the x-mcp-header annotations of a tool's input schema
// by the spec's rules (server/tools.mdx, x-mcp-header) and reports whether
// there are any. Given `header:` on arguments, problems are reported there.
func (b *builder) paramHeaders(f *load.File, path string, t *spec.Tool, doc map[string]any) bool {
	seen := map[string]string{}
	found := false
	report := func(p, msg string) {
		b.diag(f, load.Error, p, msg, "")
	}
	var walk func(props map[string]any, at func(name string) string)
	walk = func(props map[string]any, at func(name string) string) {
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			if h, ok := p["x-mcp-header"]; ok {
				found = true
				paramheader.Check(at(name), h, p, seen, report)
			}
			if sub, ok := p["properties"].(map[string]any); ok {
				walk(sub, func(string) string { return at(name) })
			}
		}
	}
	props, _ := doc["properties"].(map[string]any)
	defer func() {
		if paramheader.Misplaced(doc) {
			report(path+".input_schema", "x-mcp-header is allowed only on properties reached from the root through `properties`, not inside items, anyOf, oneOf, allOf, if or $defs")
		}
	}()
	walk(props, func(name string) string {
		for i, a := range t.Args {
			if a != nil && a.Name == name {
				return fmt.Sprintf("%s.args[%d].header", path, i)
			}
		}
		return path + ".input_schema"
	})
	return found
}

// httpConfig checks the `server.http` section of f.
func (b *builder) httpConfig(f *load.File, h *spec.HTTP) {
	b.plan.HTTP = h
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
