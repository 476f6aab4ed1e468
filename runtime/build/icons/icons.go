// Package icons holds the checks of the icons a config gives its server,
// tools, prompts and resources that need nothing but the icon: its sizes,
// MIME type, src and the image a file holds. The builder reads icon files
// under its own file rules and reports what these checks find.
package icons

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/vincent-petithory/dataurl"
)

// MaxSize bounds an icon file: it is sent, as a data: URI a third larger,
// in every list result that names its owner.
const MaxSize = 256 << 10

// A Problem is what is wrong with an icon: at Path, relative to the
// field checked (".sizes[1]", or "" for the field itself); an error
// unless Warning.
type Problem struct {
	Path    string
	Warning bool
	Msg     string
	Hint    string
}

// size is one entry of an icon's sizes: WIDTHxHEIGHT, or any.
var size = regexp.MustCompile(`^(any|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$`)

// Sizes checks an icon's sizes.
func Sizes(sizes []string) []Problem {
	var out []Problem
	for i, s := range sizes {
		if !size.MatchString(s) {
			out = append(out, Problem{Path: fmt.Sprintf(".sizes[%d]", i), Msg: fmt.Sprintf("invalid icon size %q", s),
				Hint: "write WIDTHxHEIGHT, such as 48x48, or any for a scalable image"})
		}
	}
	return out
}

// ImageType checks that t is an image MIME type.
func ImageType(t string) *Problem {
	mt, _, err := mime.ParseMediaType(t)
	if err != nil || !strings.HasPrefix(mt, "image/") {
		return &Problem{Msg: fmt.Sprintf("%q is not an image MIME type", t),
			Hint: "clients show PNG, JPEG, GIF, WebP and SVG icons: image/png, image/jpeg, image/gif, image/webp, image/svg+xml"}
	}
	return nil
}

// Src checks an icon's src: an https: URL or an image data: URI. It
// returns the src to serve, "" when it cannot be served.
func Src(src string) (string, []Problem) {
	u, err := url.Parse(src)
	switch {
	case err == nil && u.Scheme == "https" && u.Host != "":
	case err == nil && u.Scheme == "http" && u.Host != "":
		return src, []Problem{{Warning: true, Msg: "icon served over plain http", Hint: "clients may refuse it; use https: or give the image as a file"}}
	case err == nil && u.Scheme == "data":
		du, err := dataurl.DecodeString(src)
		if err != nil {
			return "", []Problem{{Msg: fmt.Sprintf("invalid data: URI: %v", err), Hint: "write data:image/png;base64,... or give the image as a file"}}
		}
		if p := ImageType(du.ContentType()); p != nil {
			return src, []Problem{*p}
		}
	default:
		return "", []Problem{{Msg: fmt.Sprintf("icon src %q is neither an https: URL nor a data: URI", src),
			Hint: "give a local image as `file`, which mcpgen embeds"}}
	}
	return src, nil
}

// Embed returns an icon file's data as a data: URI of type t (as the
// config gives it, or as its name tells), after checking that data holds
// an image of that type; name is the file's, for the message.
func Embed(name, t string, data []byte) (string, string, *Problem) {
	t, _, _ = mime.ParseMediaType(t)
	if got := sniff(data); got != canonical(t) {
		hint := "its contents are " + got + "; fix mime_type or the file"
		if got == "" {
			hint = "it holds no image mcpgen recognizes"
		}
		return "", "", &Problem{Msg: fmt.Sprintf("%s does not hold an image of type %s", name, t), Hint: hint}
	}
	return dataurl.New(data, t).String(), t, nil
}

// sniff returns the image type data holds, by its first bytes
// (image/svg+xml for an SVG document), or "" when it holds no image.
func sniff(data []byte) string {
	if t, _, _ := mime.ParseMediaType(http.DetectContentType(data)); strings.HasPrefix(t, "image/") {
		return canonical(t)
	}
	if bytes.Contains(data[:min(len(data), 4096)], []byte("<svg")) {
		return "image/svg+xml"
	}
	return ""
}

// canonical names ICO files one way, whatever the system's MIME table says.
func canonical(t string) string {
	if t == "image/vnd.microsoft.icon" {
		return "image/x-icon"
	}
	return t
}
