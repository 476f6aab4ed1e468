package runtime

import (
	"encoding/base64"
	"fmt"
	"mime"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

// block is one compiled content block.
type block struct {
	kind     string // text, image, audio, resource, resource_link
	text     *templates.Template
	data     []byte // image, audio or resource blob
	mimeType string
	uri      *templates.Template
	name     *templates.Template
	desc     string
}

// blocks compiles content blocks; roots are the names templates may use.
func (b *builder) blocks(f *load.File, path string, cs []*spec.Content, roots map[string][]string) []*block {
	return entries(b, f, path, "", cs, // an empty block is reported when the file loads
		func(_ int, p string, c *spec.Content) *block { return b.block(f, p, c, roots) })
}

// block compiles one content block; the loader has checked that it has
// exactly one kind.
func (b *builder) block(f *load.File, path string, c *spec.Content, roots map[string][]string) *block {
	switch {
	case c.Text != nil:
		return &block{kind: "text", text: b.template(f, path+".text", *c.Text, roots)}
	case c.Image != nil:
		return b.binary(f, path+".image", "image", c.Image)
	case c.Audio != nil:
		return b.binary(f, path+".audio", "audio", c.Audio)
	case c.Resource != nil:
		return b.embedded(f, path+".resource", c.Resource, roots)
	case c.ResourceLink != nil:
		l := c.ResourceLink
		return &block{kind: "resource_link", uri: b.template(f, path+".resource_link.uri", l.URI, roots),
			name: b.template(f, path+".resource_link.name", l.Name, roots), desc: l.Description, mimeType: l.MimeType}
	}
	return nil
}

// binary reads inline base64 or a file into an image or audio block.
func (b *builder) binary(f *load.File, path, kind string, bin *spec.Binary) *block {
	blk := &block{kind: kind, mimeType: bin.MimeType}
	switch {
	case bin.Data != "" && bin.File != "":
		return nil // reported when the file loaded
	case bin.File != "":
		file := b.path(f, bin.File)
		if b.kernelPath(f, path+".file", file) {
			return nil
		}
		data, err := regfile.Read(file, 0)
		if err != nil {
			b.errorf(f, path+".file", "%s", load.ReadError(err))
			return nil
		}
		blk.data = data
		if blk.mimeType == "" {
			blk.mimeType = mime.TypeByExtension(filepath.Ext(bin.File))
		}
	case bin.Data != "":
		data, ok := b.decodeBase64(f, path+".data", bin.Data)
		if !ok {
			return nil
		}
		blk.data = data
	default:
		return nil // reported when the file loaded
	}
	if blk.mimeType == "" {
		b.errorf(f, path+".mime_type", "missing mime_type")
	} else if !strings.HasPrefix(blk.mimeType, kind+"/") {
		b.diag(f, load.Warning, path+".mime_type", fmt.Sprintf("%s content with MIME type %q", kind, blk.mimeType), "")
	}
	return blk
}

func (b *builder) embedded(f *load.File, path string, e *spec.Embedded, roots map[string][]string) *block {
	c := b.contents(f, path, e.Text, e.Blob, e.MimeType, roots)
	blk := &block{kind: "resource", mimeType: c.mimeType, text: c.text, data: c.blob,
		uri: b.template(f, path+".uri", e.URI, roots)}
	var file string
	if e.File != "" {
		file = b.path(f, e.File)
	}
	if file != "" && !b.kernelPath(f, path+".file", file) {
		data, err := regfile.Read(file, 0)
		if err != nil {
			b.errorf(f, path+".file", "%s", load.ReadError(err))
		}
		var isText bool
		blk.mimeType, isText = fileType(blk.mimeType, e.File, data)
		if isText {
			blk.text = templates.Literal(string(data))
		} else {
			blk.data = data
		}
	}
	return blk
}

// decodeBase64 decodes inline binary data (an image's data, a resource's
// blob), which may be wrapped over lines; it reports a problem at path.
func (b *builder) decodeBase64(f *load.File, path, s string) ([]byte, bool) {
	data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		b.errorf(f, path, "invalid base64: %v", err)
		return nil, false
	}
	return data, true
}

// fileType returns the MIME type of a file's contents, and whether they are
// sent as text rather than as a blob, the same way for a resource read from
// a file and for a file embedded in content. The type is mimeType when
// given, else the one its name's extension says; contents of unknown type
// are text/plain when they are UTF-8, application/octet-stream otherwise.
func fileType(mimeType, name string, data []byte) (string, bool) {
	if mimeType == "" {
		mimeType = mime.TypeByExtension(filepath.Ext(name))
	}
	switch {
	case mimeType != "":
		return mimeType, isText(mimeType)
	case utf8.Valid(data):
		return "text/plain", true
	default:
		return "application/octet-stream", false
	}
}

func isText(mimeType string) bool {
	mt, _, _ := mime.ParseMediaType(mimeType)
	return strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		mt == "application/yaml" || mt == "application/xml" || strings.HasSuffix(mt, "+xml")
}

// render renders blocks with data.
func (s *Server) render(blocks []*block, data map[string]any) ([]mcp.Content, error) {
	out := make([]mcp.Content, 0, len(blocks))
	for _, blk := range blocks {
		c, err := blk.render(data)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (blk *block) render(data map[string]any) (mcp.Content, error) {
	exec := func(t *templates.Template) (string, error) {
		if t == nil {
			return "", nil
		}
		return t.Execute(data)
	}
	switch blk.kind {
	case "text":
		text, err := exec(blk.text)
		return &mcp.TextContent{Text: text}, err
	case "image":
		return &mcp.ImageContent{Data: blk.data, MIMEType: blk.mimeType}, nil
	case "audio":
		return &mcp.AudioContent{Data: blk.data, MIMEType: blk.mimeType}, nil
	case "resource_link":
		uri, err := exec(blk.uri)
		if err != nil {
			return nil, err
		}
		name, err := exec(blk.name)
		return &mcp.ResourceLink{URI: uri, Name: name, Description: blk.desc, MIMEType: blk.mimeType}, err
	}
	uri, err := exec(blk.uri)
	if err != nil {
		return nil, err
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: blk.mimeType}
	if blk.text != nil {
		if rc.Text, err = exec(blk.text); err != nil {
			return nil, err
		}
	} else {
		rc.Blob = blk.data
	}
	return &mcp.EmbeddedResource{Resource: rc}, nil
}

// mcpContent is the one place where a handler's content blocks become the
// protocol's. A result of one text block, the usual one, is allocated
// together with its list.
func mcpContent(cs []handlers.Content) []mcp.Content {
	switch {
	case len(cs) == 0:
		return nil
	case len(cs) == 1 && cs[0].Kind == handlers.KindText:
		c := &struct {
			list [1]mcp.Content
			text mcp.TextContent
		}{text: mcp.TextContent{Text: cs[0].Text}}
		c.list[0] = &c.text
		return c.list[:]
	}
	out := make([]mcp.Content, len(cs))
	for i, c := range cs {
		switch c.Kind {
		case handlers.KindImage:
			out[i] = &mcp.ImageContent{Data: c.Data, MIMEType: c.MIMEType}
		case handlers.KindAudio:
			out[i] = &mcp.AudioContent{Data: c.Data, MIMEType: c.MIMEType}
		case handlers.KindResource:
			out[i] = &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Data}}
		default:
			out[i] = &mcp.TextContent{Text: c.Text}
		}
	}
	return out
}
