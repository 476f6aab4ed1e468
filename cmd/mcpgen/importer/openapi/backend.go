package openapi

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// Env is an environment variable the config reads.
type Env struct {
	// Name of the variable.
	Name string
	// Secret variables hold credentials and have no default.
	Secret bool
	// Default is used when the variable is not set.
	Default string
}

// backend is one http backend of the config: one per server URL.
type backend struct {
	name string
	url  string // the server URL as the description wrote it
	node *yaml.Node
}

var serverVar = regexp.MustCompile(`\{([^{}]+)\}`)

// backendFor returns the name of the backend for servers (the operation's,
// the path's or the document's), making it on first use. Every server of
// the document gets a backend; tools use the first.
func (b *builder) backendFor(servers openapi3.Servers) string {
	if len(servers) == 0 {
		servers = b.doc.T.Servers
	}
	if len(servers) == 0 {
		servers = openapi3.Servers{{URL: "/"}}
	}
	first := ""
	for _, s := range servers {
		name := b.serverBackend(s)
		if first == "" {
			first = name
		}
	}
	return first
}

func (b *builder) serverBackend(s *openapi3.Server) string {
	for _, be := range b.backends {
		if be.url == s.URL {
			return be.name
		}
	}
	name := b.backendNames.unique(b.name)
	n := mapping()
	set(n, "kind", str("http"))
	set(n, "base_url", str(b.baseURL(s)))
	if auth := b.auth(); auth != nil {
		set(n, "auth", auth)
	}
	key := str(name)
	key.HeadComment = b.serverComment(s)
	b.backends = append(b.backends, &backend{name: name, url: s.URL, node: n})
	b.backendKeys = append(b.backendKeys, key)
	return name
}

func (b *builder) serverComment(s *openapi3.Server) string {
	var lines []string
	if s.Description != "" {
		lines = append(lines, trim(s.Description, 200))
	}
	for _, v := range slices.Sorted(maps.Keys(s.Variables)) {
		sv := s.Variables[v]
		if sv != nil && len(sv.Enum) > 0 {
			lines = append(lines, fmt.Sprintf("%s: one of %s", b.envName(v), strings.Join(sv.Enum, ", ")))
		}
	}
	if b.authNote != "" {
		lines = append(lines, b.authNote)
	}
	return strings.Join(lines, "\n")
}

// baseURL is the server URL with its variables as ${VAR:-default}. A
// relative URL is resolved against the description's own URL, or else
// against ${NAME_URL}, which defaults to http://localhost.
func (b *builder) baseURL(s *openapi3.Server) string {
	raw := serverVar.ReplaceAllStringFunc(s.URL, func(m string) string {
		v := m[1 : len(m)-1]
		name := b.envName(v)
		def := ""
		if sv := s.Variables[v]; sv != nil {
			def = sv.Default
		}
		b.addEnv(Env{Name: name, Default: def})
		return "${" + name + ":-" + strings.ReplaceAll(def, "}", "") + "}"
	})
	if !strings.Contains(raw, "://") && !strings.HasPrefix(raw, "${") {
		if src := b.doc.Source; src != nil && (src.Scheme == "http" || src.Scheme == "https") {
			if u, err := src.Parse(raw); err == nil {
				raw = u.String()
			}
		} else {
			name := b.envName("url")
			b.addEnv(Env{Name: name, Default: "http://localhost"})
			raw = "${" + name + ":-http://localhost}" + "/" + strings.TrimLeft(raw, "/")
		}
	}
	return strings.TrimSuffix(raw, "/")
}

// envName is the environment variable for what: NAME_WHAT in upper case.
func (b *builder) envName(what string) string {
	return strings.ToUpper(snake(b.name + "_" + what))
}

func (b *builder) addEnv(e Env) {
	if !slices.ContainsFunc(b.env, func(x Env) bool { return x.Name == e.Name }) {
		b.env = append(b.env, e)
	}
}
