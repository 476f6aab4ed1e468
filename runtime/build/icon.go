package build

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/vincent-petithory/dataurl"
)

// maxIconSize bounds an icon file: it is sent, as a data: URI a third
// larger, in every list result that names its owner.
const maxIconSize = 256 << 10

// iconSize is one entry of an icon's sizes: WIDTHxHEIGHT, or any.
var iconSize = regexp.MustCompile(`^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$`)

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
		for i, s := range ic.Sizes {
			if !iconSize.MatchString(s) {
				b.diag(f, load.Error, fmt.Sprintf("%s.sizes[%d]", path, i), fmt.Sprintf("invalid icon size %q", s),
					"write WIDTHxHEIGHT, such as 48x48, or any for a scalable image")
			}
		}
		if ic.MimeType != "" && !b.imageType(f, path+".mime_type", ic.MimeType) {
			return nil
		}
		switch {
		case ic.Src != "" && ic.File != "":
			return nil // reported when the file loaded
		case ic.Src != "":
			out.Source = b.iconSrc(f, path+".src", ic)
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

// imageType reports whether t is an image MIME type, reporting it at path
// when it is not.
func (b *builder) imageType(f *load.File, path, t string) bool {
	mt, _, err := mime.ParseMediaType(t)
	if err != nil || !strings.HasPrefix(mt, "image/") {
		b.diag(f, load.Error, path, fmt.Sprintf("%q is not an image MIME type", t),
			"clients show PNG, JPEG, GIF, WebP and SVG icons: image/png, image/jpeg, image/gif, image/webp, image/svg+xml")
		return false
	}
	return true
}

// iconSrc checks an icon's src: an https: URL or an image data: URI.
func (b *builder) iconSrc(f *load.File, path string, ic *spec.Icon) string {
	u, err := url.Parse(ic.Src)
	switch {
	case err == nil && u.Scheme == "https" && u.Host != "":
	case err == nil && u.Scheme == "http" && u.Host != "":
		b.diag(f, load.Warning, path, "icon served over plain http", "clients may refuse it; use https: or give the image as a file")
	case err == nil && u.Scheme == "data":
		du, err := dataurl.DecodeString(ic.Src)
		if err != nil {
			b.diag(f, load.Error, path, fmt.Sprintf("invalid data: URI: %v", err), "write data:image/png;base64,... or give the image as a file")
			return ""
		}
		b.imageType(f, path, du.ContentType())
	default:
		b.diag(f, load.Error, path, fmt.Sprintf("icon src %q is neither an https: URL nor a data: URI", ic.Src),
			"give a local image as `file`, which mcpgen embeds")
		return ""
	}
	return ic.Src
}

// iconFile reads an icon's file and returns it as a data: URI, with its
// MIME type.
func (b *builder) iconFile(f *load.File, path string, ic *spec.Icon) (string, string) {
	p := b.path(f, ic.File)
	if b.kernelPath(f, path+".file", p) {
		return "", ""
	}
	data, err := regfile.Read(p, maxIconSize)
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
	t, _, _ = mime.ParseMediaType(t)
	if got := sniffImage(data); got != iconType(t) {
		b.diag(f, load.Error, path+".file", fmt.Sprintf("%s does not hold an image of type %s", ic.File, t), contentHint(got))
		return "", ""
	}
	return dataurl.New(data, t).String(), t
}

// sniffImage returns the image type data holds, by its first bytes
// (image/svg+xml for an SVG document), or "" when it holds no image.
func sniffImage(data []byte) string {
	if t, _, _ := mime.ParseMediaType(http.DetectContentType(data)); strings.HasPrefix(t, "image/") {
		return iconType(t)
	}
	if bytes.Contains(data[:min(len(data), 4096)], []byte("<svg")) {
		return "image/svg+xml"
	}
	return ""
}

// iconType names ICO files one way, whatever the system's MIME table says.
func iconType(t string) string {
	if t == "image/vnd.microsoft.icon" {
		return "image/x-icon"
	}
	return t
}

func contentHint(got string) string {
	if got == "" {
		return "it holds no image mcpgen recognizes"
	}
	return "its contents are " + got + "; fix mime_type or the file"
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
