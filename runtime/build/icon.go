package build

import (
	"fmt"
	"mime"
	"net/url"
	"path/filepath"

	"github.com/mcpgen/mcpgen/runtime/build/icons"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
)

// icons builds the icons at path (server.icons, tools[0].icons, ...); an
// icon with a problem is reported and left out.
func (b *builder) icons(f *load.File, path string, list []*spec.Icon) []mcp.Icon {
	var out []mcp.Icon
	for _, ic := range entries(b, f, path, "empty icon; give its src or file", list, b.icon(f)) {
		out = append(out, *ic)
	}
	return out
}

func (b *builder) icon(f *load.File) func(int, string, *spec.Icon) *mcp.Icon {
	return func(_ int, path string, ic *spec.Icon) *mcp.Icon {
		before := b.ds.Errors()
		out := &mcp.Icon{MIMEType: ic.MimeType, Sizes: ic.Sizes, Theme: mcp.IconTheme(ic.Theme)}
		b.iconProblems(f, path, icons.Sizes(ic.Sizes)...)
		if ic.MimeType != "" && !b.imageType(f, path+".mime_type", ic.MimeType) {
			return nil
		}
		switch {
		case ic.Src != "" && ic.File != "":
			return nil // reported when the file loaded
		case ic.Src != "":
			var ps []icons.Problem
			out.Source, ps = icons.Src(ic.Src)
			b.iconProblems(f, path+".src", ps...)
		case ic.File != "":
			out.Source, out.MIMEType = b.iconFile(f, path, ic)
		default:
			return nil // reported when the file loaded
		}
		if b.ds.Errors() > before {
			return nil
		}
		return out
	}
}

// iconProblems reports what the icon checks found at path.
func (b *builder) iconProblems(f *load.File, path string, ps ...icons.Problem) {
	for _, p := range ps {
		level := load.Error
		if p.Warning {
			level = load.Warning
		}
		b.diag(f, level, path+p.Path, p.Msg, p.Hint)
	}
}

// imageType reports whether t is an image MIME type, reporting it at path
// when it is not.
func (b *builder) imageType(f *load.File, path, t string) bool {
	p := icons.ImageType(t)
	if p != nil {
		b.iconProblems(f, path, *p)
	}
	return p == nil
}

// iconFile reads an icon's file and returns it as a data: URI, with its
// MIME type.
func (b *builder) iconFile(f *load.File, path string, ic *spec.Icon) (string, string) {
	p := b.path(f, ic.File)
	if b.kernelPath(f, path+".file", p) {
		return "", ""
	}
	data, err := regfile.Read(p, icons.MaxSize)
	if err != nil {
		b.errorf(f, path+".file", "%s", load.ReadError(err))
		return "", ""
	}
	t := ic.MimeType
	if t == "" {
		if t = mime.TypeByExtension(filepath.Ext(ic.File)); t == "" {
			b.diag(f, load.Error, path+".file", fmt.Sprintf("cannot tell the image type of %q from its name", ic.File), "set mime_type")
			return "", ""
		}
		if !b.imageType(f, path+".file", t) {
			return "", ""
		}
	}
	src, t, prob := icons.Embed(ic.File, t, data)
	if prob != nil {
		b.iconProblems(f, path+".file", *prob)
	}
	return src, t
}

// websiteURL checks the server's website_url: an absolute http: or https:
// URL. It returns "" after reporting one that is not.
func (b *builder) websiteURL(f *load.File, u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		b.diag(f, load.Error, "server.website_url", fmt.Sprintf("invalid website URL %q", u), "give an absolute URL, such as https://example.com/notes")
		return ""
	}
	return u
}
