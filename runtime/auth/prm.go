package auth

import (
	"net/http"
	"net/url"
	"strings"

	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/oauthex"
)

// MetadataPrefix is where protected resource metadata lives (RFC 9728 §3).
const MetadataPrefix = "/.well-known/oauth-protected-resource"

// MetadataURL is the URL of the protected resource metadata, with the
// resource's path inserted after MetadataPrefix (RFC 9728 §3.1), or "" when
// the guard has no OAuth settings (API keys only).
func (g *Guard) MetadataURL() string {
	if g.resource == "" || g.issuer == "" {
		return ""
	}
	u, err := url.Parse(g.resource)
	if err != nil {
		return ""
	}
	u.Path = MetadataPrefix + strings.TrimSuffix(u.Path, "/")
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
}

// MetadataPaths are the paths the metadata is served at: the root form,
// and the form with the resource's path (and mcpPath, where the server
// actually answers) inserted.
func (g *Guard) MetadataPaths(mcpPath string) []string {
	if g.MetadataURL() == "" {
		return nil
	}
	paths := []string{MetadataPrefix, MetadataPrefix + mcpPath}
	if u, err := url.Parse(g.MetadataURL()); err == nil && u.Path != MetadataPrefix && u.Path != MetadataPrefix+mcpPath {
		paths = append(paths, u.Path)
	}
	return paths
}

// MetadataHandler serves the protected resource metadata document: the
// resource, its authorization server, the required scopes, and that
// tokens go in the Authorization header only.
func (g *Guard) MetadataHandler() http.Handler {
	return sdkauth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               g.resource,
		AuthorizationServers:   []string{g.issuer},
		ScopesSupported:        g.required,
		BearerMethodsSupported: []string{"header"},
	})
}
