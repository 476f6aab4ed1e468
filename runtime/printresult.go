package runtime

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// PrintResult prints a tool's result for a person (`mcpgen call`): text
// blocks as they are, other blocks as a line saying what they hold, to out,
// or to errOut when the result is an error.
func PrintResult(out, errOut io.Writer, res *mcp.CallToolResult) {
	w := out
	if res.IsError {
		w = errOut
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Fprintln(w, strings.TrimRight(c.Text, "\n"))
		case *mcp.ImageContent:
			fmt.Fprintf(w, "[image %s, %d bytes]\n", c.MIMEType, len(c.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(w, "[audio %s, %d bytes]\n", c.MIMEType, len(c.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(w, "[resource link %s]\n", c.URI)
		case *mcp.EmbeddedResource:
			if c.Resource.Text != "" {
				fmt.Fprintf(w, "[resource %s]\n%s\n", c.Resource.URI, c.Resource.Text)
			} else {
				fmt.Fprintf(w, "[resource %s, %s, %d bytes]\n", c.Resource.URI, c.Resource.MIMEType, len(c.Resource.Blob))
			}
		}
	}
}

// ResultText joins the text blocks of a tool's result, one to a line.
func ResultText(res *mcp.CallToolResult) string {
	return contentText(res.Content)
}
