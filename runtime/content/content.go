// Package content turns content into the protocol's blocks: the compiled
// content blocks of tools and prompts (rendered per call with their
// templates), a handler's own content, and the type of a file's contents.
package content

import (
	"mime"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/templates"
)

// Block is one compiled content block. The build makes it; nothing
// changes it afterwards.
type Block struct {
	Kind     string // text, image, audio, resource, resource_link
	Text     *templates.Template
	Data     []byte // image, audio or resource blob
	MIMEType string
	URI      *templates.Template
	Name     *templates.Template
	Desc     string
}

// FileType returns the MIME type of a file's contents, and whether they are
// sent as text rather than as a blob, the same way for a resource read from
// a file and for a file embedded in content. The type is mimeType when
// given, else the one its name's extension says; contents of unknown type
// are text/plain when they are UTF-8, application/octet-stream otherwise.
func FileType(mimeType, name string, data []byte) (string, bool) {
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

// isText reports whether contents of a MIME type are sent as text.
func isText(mimeType string) bool {
	mt, _, _ := mime.ParseMediaType(mimeType)
	return strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		mt == "application/yaml" || mt == "application/xml" || strings.HasSuffix(mt, "+xml")
}

// Render renders blocks with data.
func Render(blocks []*Block, data map[string]any) ([]mcp.Content, error) {
	out := make([]mcp.Content, 0, len(blocks))
	for _, blk := range blocks {
		c, err := blk.Render(data)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Render renders one block with data.
func (blk *Block) Render(data map[string]any) (mcp.Content, error) {
	exec := func(t *templates.Template) (string, error) {
		if t == nil {
			return "", nil
		}
		return t.Execute(data)
	}
	switch blk.Kind {
	case "text":
		text, err := exec(blk.Text)
		return &mcp.TextContent{Text: text}, err
	case "image":
		return &mcp.ImageContent{Data: blk.Data, MIMEType: blk.MIMEType}, nil
	case "audio":
		return &mcp.AudioContent{Data: blk.Data, MIMEType: blk.MIMEType}, nil
	case "resource_link":
		uri, err := exec(blk.URI)
		if err != nil {
			return nil, err
		}
		name, err := exec(blk.Name)
		return &mcp.ResourceLink{URI: uri, Name: name, Description: blk.Desc, MIMEType: blk.MIMEType}, err
	}
	uri, err := exec(blk.URI)
	if err != nil {
		return nil, err
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: blk.MIMEType}
	if blk.Text != nil {
		if rc.Text, err = exec(blk.Text); err != nil {
			return nil, err
		}
	} else {
		rc.Blob = blk.Data
	}
	return &mcp.EmbeddedResource{Resource: rc}, nil
}

// FromHandlers is the one place where a handler's content blocks become the
// protocol's. A result of one text block, the usual one, is allocated
// together with its list.
func FromHandlers(cs []handlers.Content) []mcp.Content {
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
