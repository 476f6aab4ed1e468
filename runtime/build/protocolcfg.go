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
				b.checkHeader(at(name), h, p, seen, report)
			}
			if sub, ok := p["properties"].(map[string]any); ok {
				walk(sub, func(string) string { return at(name) })
			}
		}
	}
	props, _ := doc["properties"].(map[string]any)
	defer func() {
		if countHeaders(doc) > countChained(props) {
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

// checkHeader checks one annotation: a token, unique regardless of case,
// on a string, integer or boolean.
func (b *builder) checkHeader(at string, h any, prop map[string]any, seen map[string]string, report func(string, string)) {
	name, ok := h.(string)
	switch {
	case !ok || name == "":
		report(at, "x-mcp-header must be a non-empty header name")
		return
	case strings.IndexFunc(name, func(r rune) bool { return !isTChar(r) }) >= 0:
		report(at, fmt.Sprintf("header name %q has characters a header name cannot have; use letters, digits and !#$%%&'*+-.^_`|~", name))
		return
	}
	if prev, dup := seen[strings.ToLower(name)]; dup {
		report(at, fmt.Sprintf("header name %q is used twice in this tool (also %q; names ignore case)", name, prev))
	}
	seen[strings.ToLower(name)] = name
	switch prop["type"] {
	case "string", "integer", "boolean":
	default:
		report(at, fmt.Sprintf("header %q is on an argument of type %v; only string, integer and boolean arguments can be mirrored in a header", name, prop["type"]))
	}
}

// isTChar reports whether c may appear in an HTTP header name (RFC 9110
// tchar).
func isTChar(c rune) bool {
	return c < 128 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
		strings.ContainsRune("!#$%&'*+-.^_`|~", c))
}

// countHeaders counts the x-mcp-header annotations anywhere in v.
func countHeaders(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["x-mcp-header"]; ok {
			n++
		}
		for _, e := range v {
			n += countHeaders(e)
		}
	case []any:
		for _, e := range v {
			n += countHeaders(e)
		}
	}
	return n
}

// countChained counts the annotations on properties chains from props.
func countChained(props map[string]any) int {
	n := 0
	for _, p := range props {
		p, _ := p.(map[string]any)
		if _, ok := p["x-mcp-header"]; ok {
			n++
		}
		sub, _ := p["properties"].(map[string]any)
		n += countChained(sub)
	}
	return n
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
