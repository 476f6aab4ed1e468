package build

import (
	"encoding/base64"
	"fmt"
	"mime"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

// blocks compiles content blocks; roots are the names templates may use.
func (b *builder) blocks(f *load.File, path string, cs []*spec.Content, roots map[string][]string) []*content.Block {
	return entries(b, f, path, "", cs, // an empty block is reported when the file loads
		func(_ int, p string, c *spec.Content) *content.Block { return b.block(f, p, c, roots) })
}

// block compiles one content block; the loader has checked that it has
// exactly one kind.
func (b *builder) block(f *load.File, path string, c *spec.Content, roots map[string][]string) *content.Block {
	switch {
	case c.Text != nil:
		return &content.Block{Kind: "text", Text: b.template(f, path+".text", *c.Text, roots)}
	case c.Image != nil:
		return b.binary(f, path+".image", "image", c.Image)
	case c.Audio != nil:
		return b.binary(f, path+".audio", "audio", c.Audio)
	case c.Resource != nil:
		return b.embedded(f, path+".resource", c.Resource, roots)
	case c.ResourceLink != nil:
		l := c.ResourceLink
		return &content.Block{Kind: "resource_link", URI: b.template(f, path+".resource_link.uri", l.URI, roots),
			Name: b.template(f, path+".resource_link.name", l.Name, roots), Desc: l.Description, MIMEType: l.MimeType}
	}
	return nil
}

// binary reads inline base64 or a file into an image or audio block.
func (b *builder) binary(f *load.File, path, kind string, bin *spec.Binary) *content.Block {
	blk := &content.Block{Kind: kind, MIMEType: bin.MimeType}
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
		blk.Data = data
		if blk.MIMEType == "" {
			blk.MIMEType = mime.TypeByExtension(filepath.Ext(bin.File))
		}
	case bin.Data != "":
		data, ok := b.decodeBase64(f, path+".data", bin.Data)
		if !ok {
			return nil
		}
		blk.Data = data
	default:
		return nil // reported when the file loaded
	}
	if blk.MIMEType == "" {
		b.errorf(f, path+".mime_type", "missing mime_type")
	} else if !strings.HasPrefix(blk.MIMEType, kind+"/") {
		b.diag(f, load.Warning, path+".mime_type", fmt.Sprintf("%s content with MIME type %q", kind, blk.MIMEType), "")
	}
	return blk
}

func (b *builder) embedded(f *load.File, path string, e *spec.Embedded, roots map[string][]string) *content.Block {
	c := b.contents(f, path, e.Text, e.Blob, e.MimeType, roots)
	blk := &content.Block{Kind: "resource", MIMEType: c.MimeType, Text: c.Text, Data: c.Blob,
		URI: b.template(f, path+".uri", e.URI, roots)}
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
		blk.MIMEType, isText = content.FileType(blk.MIMEType, e.File, data)
		if isText {
			blk.Text = templates.Literal(string(data))
		} else {
			blk.Data = data
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
