package runtime

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// pngHeader is the start of a PNG file, enough for its type to be sniffed.
const pngHeader = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"

const iconConfig = `version: 1
server:
  name: notes
  description: The team's notes.
  website_url: https://example.com/notes
  icons:
    - {file: logo.png, sizes: [48x48], theme: light}
    - {src: "https://example.com/logo.svg", mime_type: image/svg+xml, sizes: [any]}
tools:
  - name: greet
    description: Greets.
    icons: [{file: art/mark.svg}]
    content: [{text: hi}]
resources:
  - {uri: "docs://about", name: about, text: about, icons: [{src: "data:image/png;base64,iVBORw0KGgo="}]}
resource_templates:
  - {uri_template: "docs://{name}", name: doc, text: doc, icons: [{file: logo.png}]}
prompts:
  - name: hello
    description: Says hello.
    icons: [{file: logo.png, theme: dark}]
    messages: [{text: hello}]
`

// TestIcons checks that icons reach clients on the server, tools,
// resources, templates and prompts, files embedded as data: URIs holding
// the file's bytes, with the description and website of the server.
func TestIcons(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`
	srv := mustCompile(t, iconConfig, map[string]string{"logo.png": pngHeader, "art/mark.svg": svg})
	cs := session(t, srv, "2025-11-25", nil, nil)
	ctx := context.Background()
	logo := "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte(pngHeader))

	info := cs.InitializeResult().ServerInfo
	want := &mcp.Implementation{Name: "notes", Version: "0.0.0", Description: "The team's notes.",
		WebsiteURL: "https://example.com/notes", Icons: []mcp.Icon{
			{Source: logo, MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "light"},
			{Source: "https://example.com/logo.svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}}}}
	if d := cmp.Diff(want, info); d != "" {
		t.Errorf("serverInfo (-want +got):\n%s", d)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantSVG := []mcp.Icon{{Source: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)), MIMEType: "image/svg+xml"}}
	if d := cmp.Diff(wantSVG, tools.Tools[0].Icons); d != "" {
		t.Errorf("tool icons (-want +got):\n%s", d)
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]mcp.Icon{{Source: "data:image/png;base64,iVBORw0KGgo="}}, res.Resources[0].Icons); d != "" {
		t.Errorf("resource icons (-want +got):\n%s", d)
	}
	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]mcp.Icon{{Source: logo, MIMEType: "image/png"}}, tmpls.ResourceTemplates[0].Icons); d != "" {
		t.Errorf("template icons (-want +got):\n%s", d)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]mcp.Icon{{Source: logo, MIMEType: "image/png", Theme: "dark"}}, prompts.Prompts[0].Icons); d != "" {
		t.Errorf("prompt icons (-want +got):\n%s", d)
	}
}

// TestIconErrors pins the message and position of each way an icon or the
// server's website can be wrong.
func TestIconErrors(t *testing.T) {
	config := `version: 1
server:
  website_url: ftp://example.com
  icons:
    - {file: logo.png, sizes: [48x48, big]}
    - {file: text.png}
    - {file: missing.png}
    - {file: big.png}
    - {file: logo.txt}
    - {file: logo.png, mime_type: image/jpeg}
    - {src: "file:///etc/passwd"}
    - {src: "data:text/plain;base64,aGk="}
    - {src: "data:image/png;base64"}
    - {src: "http://example.com/a.png"}
    - {src: "https://example.com/a.png", file: logo.png}
    - {theme: grey, src: "https://example.com/a.png"}
tools:
  - name: t
    description: d
    icons: [{file: logo.png, mime_type: text/html}]
    content: [{text: hi}]
`
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": config, "logo.png": pngHeader, "text.png": "hello",
		"big.png":  pngHeader + strings.Repeat("x", 256<<10), // over the 256KiB an icon may hold
		"logo.txt": pngHeader})
	_, ds := Compile([]string{dir + "/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(nil)})
	want := `mcpgen.yaml:3:16: server.website_url: invalid website URL "ftp://example.com"; give an absolute URL, such as https://example.com/notes
mcpgen.yaml:5:39: server.icons[0].sizes[1]: invalid icon size "big"; write WIDTHxHEIGHT, such as 48x48, or any for a scalable image
mcpgen.yaml:6:14: server.icons[1].file: text.png does not hold an image of type image/png; it holds no image mcpgen recognizes
mcpgen.yaml:7:14: server.icons[2].file: cannot read file: no such file or directory
mcpgen.yaml:8:14: server.icons[3].file: cannot read file: file too large: larger than 256KiB
mcpgen.yaml:9:14: server.icons[4].file: "text/plain; charset=utf-8" is not an image MIME type; clients show PNG, JPEG, GIF, WebP and SVG icons: image/png, image/jpeg, image/gif, image/webp, image/svg+xml
mcpgen.yaml:10:14: server.icons[5].file: logo.png does not hold an image of type image/jpeg; its contents are image/png; fix mime_type or the file
mcpgen.yaml:11:13: server.icons[6].src: icon src "file:///etc/passwd" is neither an https: URL nor a data: URI; give a local image as ` + "`file`" + `, which mcpgen embeds
mcpgen.yaml:12:13: server.icons[7].src: "text/plain" is not an image MIME type; clients show PNG, JPEG, GIF, WebP and SVG icons: image/png, image/jpeg, image/gif, image/webp, image/svg+xml
mcpgen.yaml:13:13: server.icons[8].src: invalid data: URI: unterminated parameter sequence; write data:image/png;base64,... or give the image as a file
mcpgen.yaml:14:13: warning: server.icons[9].src: icon served over plain http; clients may refuse it; use https: or give the image as a file
mcpgen.yaml:15:42: server.icons[10].file: give exactly one of src, file; found src and file
mcpgen.yaml:16:15: server.icons[11].theme: expected one of light, dark, got "grey"
mcpgen.yaml:20:41: tools[0].icons[0].mime_type: "text/html" is not an image MIME type; clients show PNG, JPEG, GIF, WebP and SVG icons: image/png, image/jpeg, image/gif, image/webp, image/svg+xml
`
	if d := cmp.Diff(want, diagText(ds, dir)); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}
