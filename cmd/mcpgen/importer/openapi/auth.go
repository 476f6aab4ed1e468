package openapi

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// auth maps the description's security schemes to the backends' auth,
// once: the schemes of the document's security requirements first, then
// the others by name; the first one mcpgen can express wins. Secrets are
// ${VAR}s without defaults. It returns nil when no scheme applies.
func (b *builder) auth() *yaml.Node {
	if b.authDone {
		return b.authNode
	}
	b.authDone = true
	comps := b.doc.T.Components
	if comps == nil || len(comps.SecuritySchemes) == 0 {
		return nil
	}
	var order []string
	for _, req := range b.doc.T.Security {
		for _, name := range slices.Sorted(maps.Keys(req)) {
			if !slices.Contains(order, name) {
				order = append(order, name)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(comps.SecuritySchemes)) {
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	var others []string
	for _, name := range order {
		ref := comps.SecuritySchemes[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		if b.authNode == nil {
			if n, note := b.scheme(name, ref.Value); n != nil {
				b.authNode, b.authNote = n, note
				continue
			}
		}
		others = append(others, name)
	}
	if len(others) > 0 {
		b.authNote = strings.TrimSpace(b.authNote + "\nalso offered by the API, not configured: " + strings.Join(others, ", "))
	}
	return b.authNode
}

// scheme maps one security scheme, with a note on how it was mapped.
func (b *builder) scheme(name string, s *openapi3.SecurityScheme) (*yaml.Node, string) {
	n := mapping()
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		set(n, "bearer", b.secret("token"))
		return n, fmt.Sprintf("auth: %s (HTTP bearer)", name)
	case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
		basic := flowMapping()
		set(basic, "username", b.variable("username"))
		set(basic, "password", b.secret("password"))
		set(n, "basic", basic)
		return n, fmt.Sprintf("auth: %s (HTTP basic)", name)
	case s.Type == "apiKey":
		return b.apiKey(name, s)
	case s.Type == "oauth2" && s.Flows != nil && s.Flows.ClientCredentials != nil:
		return b.oauth2(name, s.Flows.ClientCredentials)
	case s.Type == "oauth2" || s.Type == "openIdConnect":
		set(n, "bearer", b.secret("token"))
		return n, fmt.Sprintf("auth: %s (%s): mcpgen cannot run this flow itself; give it an access token", name, s.Type)
	}
	return nil, ""
}

func (b *builder) apiKey(name string, s *openapi3.SecurityScheme) (*yaml.Node, string) {
	key := flowMapping()
	switch s.In {
	case "header":
		set(key, "header", str(lit(s.Name)))
		set(key, "value", b.secret("api_key"))
	case "query":
		set(key, "query", str(lit(s.Name)))
		set(key, "value", b.secret("api_key"))
	case "cookie":
		set(key, "header", str("Cookie"))
		set(key, "value", str(lit(s.Name)+"=${"+b.envName("api_key")+"}"))
		b.addEnv(Env{Name: b.envName("api_key"), Secret: true})
	default:
		return nil, ""
	}
	n := mapping()
	set(n, "api_key", key)
	return n, fmt.Sprintf("auth: %s (API key in the %s %s)", name, s.In, s.Name)
}

func (b *builder) oauth2(name string, flow *openapi3.OAuthFlow) (*yaml.Node, string) {
	o := mapping()
	set(o, "token_url", str(lit(flow.TokenURL)))
	set(o, "client_id", b.variable("client_id"))
	set(o, "client_secret", b.secret("client_secret"))
	if len(flow.Scopes) > 0 {
		scopes := sequence()
		scopes.Style = yaml.FlowStyle
		for _, s := range slices.Sorted(maps.Keys(flow.Scopes)) {
			scopes.Content = append(scopes.Content, str(lit(s)))
		}
		set(o, "scopes", scopes)
	}
	n := mapping()
	set(n, "oauth2", o)
	return n, fmt.Sprintf("auth: %s (OAuth 2.0 client credentials)", name)
}

// secret is "${NAME_WHAT}", a required variable holding a credential.
func (b *builder) secret(what string) *yaml.Node {
	name := b.envName(what)
	b.addEnv(Env{Name: name, Secret: true})
	return str("${" + name + "}")
}

// variable is "${NAME_WHAT}", a required variable that is not a secret.
func (b *builder) variable(what string) *yaml.Node {
	name := b.envName(what)
	b.addEnv(Env{Name: name})
	return str("${" + name + "}")
}
