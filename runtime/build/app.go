package build

import (
	"cmp"
	"fmt"
	"mime"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// appPermissions maps the config's permission names to the extension's.
var appPermissions = map[string]string{"camera": "camera", "microphone": "microphone",
	"geolocation": "geolocation", "clipboard_write": "clipboardWrite"}

// appRef is a tool's reference to its app, checked once every resource of
// every file is built.
type appRef struct {
	f    *load.File
	path string // tools[i].app.resource
	uri  string
}

// appResource makes res an app's page: the ui:// scheme, the extension's
// MIME type, and its settings in _meta.ui of the listing and of every read.
func (b *builder) appResource(f *load.File, path string, r *spec.Resource, res *plan.Resource) {
	if !strings.HasPrefix(r.URI, "ui://") {
		b.diag(f, load.Error, path+".uri", fmt.Sprintf("the URI of an app is a ui:// URI, not %q", r.URI), "e.g. ui://shop/orders")
	}
	if r.MimeType != "" {
		if mt, params, _ := mime.ParseMediaType(r.MimeType); mt != "text/html" || params["profile"] != "mcp-app" {
			b.diag(f, load.Error, path+".mime_type", fmt.Sprintf("an app's MIME type is %s, not %q", plan.AppMIMEType, r.MimeType),
				"leave mime_type out")
		}
	}
	res.MimeType, res.Def.MIMEType = plan.AppMIMEType, plan.AppMIMEType
	ui := map[string]any{}
	if c := r.App.CSP; c != nil {
		csp := map[string]any{}
		for key, list := range map[string][]string{"connectDomains": c.ConnectDomains, "resourceDomains": c.ResourceDomains,
			"frameDomains": c.FrameDomains, "baseUriDomains": c.BaseURIDomains} {
			if list != nil {
				csp[key] = list
			}
		}
		b.origins(f, path+".app.csp", c)
		ui["csp"] = csp
	}
	if perms := b.appPermissions(f, path+".app.permissions", r.App.Permissions); perms != nil {
		ui["permissions"] = perms
	}
	if r.App.Domain != "" {
		ui["domain"] = r.App.Domain
	}
	if r.App.PrefersBorder != nil {
		ui["prefersBorder"] = *r.App.PrefersBorder
	}
	res.Meta = mcp.Meta{"ui": ui}
	res.Def.Meta = res.Meta
	b.plan.Apps = append(b.plan.Apps, r.URI)
}

// origins reports CSP entries that are not an origin: a scheme (https,
// http, wss, ws) and a host, optionally *. for its subdomains, no path.
func (b *builder) origins(f *load.File, path string, c *spec.AppCSP) {
	for key, list := range map[string][]string{"connect_domains": c.ConnectDomains, "resource_domains": c.ResourceDomains,
		"frame_domains": c.FrameDomains, "base_uri_domains": c.BaseURIDomains} {
		for i, o := range list {
			u, err := url.Parse(o)
			if err != nil || !slices.Contains([]string{"https", "http", "wss", "ws"}, u.Scheme) || u.Host == "" ||
				strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
				b.diag(f, load.Error, fmt.Sprintf("%s.%s[%d]", path, key, i), fmt.Sprintf("%q is not an origin", o),
					"write a scheme and a host, such as https://api.example.com or https://*.example.com")
			}
		}
	}
}

// appPermissions returns the extension's form of the permissions, after
// reporting unknown ones; nil for none.
func (b *builder) appPermissions(f *load.File, path string, names []string) map[string]any {
	if len(names) == 0 {
		return nil
	}
	out := map[string]any{}
	for i, p := range names {
		name, ok := appPermissions[p]
		if !ok {
			known := []string{"camera", "clipboard_write", "geolocation", "microphone"}
			b.diag(f, load.Error, fmt.Sprintf("%s[%d]", path, i), fmt.Sprintf("unknown permission %q", p),
				cmp.Or(suggest.DidYouMean(p, known), "known permissions: "+strings.Join(known, ", ")))
			continue
		}
		out[name] = map[string]any{}
	}
	return out
}

// toolApp returns the _meta of a tool that names an app, recording the
// reference to check once every resource is known.
func (b *builder) toolApp(f *load.File, path string, a *spec.ToolApp) mcp.Meta {
	if a == nil {
		return nil
	}
	ui := map[string]any{"resourceUri": a.Resource}
	for i, v := range a.Visibility {
		if v != "model" && v != "app" {
			b.diag(f, load.Error, fmt.Sprintf("%s.app.visibility[%d]", path, i), fmt.Sprintf("unknown visibility %q", v),
				"use model (the client's model may call the tool), app (the app's page may), or both")
		}
	}
	if a.Visibility != nil {
		ui["visibility"] = a.Visibility
	}
	b.appRefs = append(b.appRefs, appRef{f: f, path: path + ".app.resource", uri: a.Resource})
	return mcp.Meta{"ui": ui}
}

// checkAppRefs reports tools naming an app no resource provides.
func (b *builder) checkAppRefs() {
	for _, r := range b.appRefs {
		if !slices.Contains(b.plan.Apps, r.uri) {
			b.diag(r.f, load.Error, r.path, fmt.Sprintf("no resource with `app` settings has the URI %q", r.uri),
				cmp.Or(suggest.DidYouMean(r.uri, b.plan.Apps), "declare it under resources, with app: {} and its HTML"))
		}
	}
}
