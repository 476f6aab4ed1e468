package runtime

import (
	"encoding/base64"
	"fmt"
	"mime"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
)

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
