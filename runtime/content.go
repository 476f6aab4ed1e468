package runtime

import (
	"mime"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
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
