package runtime

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/spill"
)

// A result over max_result of a tool with `overflow: pages` is cut here
// into pages that package spill keeps; their reads are answered here too.

// callerSubject is the subject of the authenticated caller, "" for none.
func callerSubject(ctx context.Context) string {
	if c := auth.CallerFrom(ctx); c != nil {
		return c.Subject
	}
	return ""
}

// spillResult keeps the text of res, over limit, and returns its first page
// with a link to the next.
func (s *Server) spillResult(ctx context.Context, res *mcp.CallToolResult, limit int) *mcp.CallToolResult {
	var text []string
	var other []mcp.Content
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		} else {
			other = append(other, c)
		}
	}
	whole := strings.Join(text, "\n")
	pages := pagesOf(whole, limit)
	id := s.spill.Keep(pages, callerSubject(ctx))
	out := *res
	out.Content = append(other, &mcp.TextContent{Text: pages[0]},
		&mcp.TextContent{Text: fmt.Sprintf("[result cut: %d bytes in %d pages; this is page 1. Read the next with resources/read of %s; each page ends with the link to the one after. Pages are kept for %v.]",
			len(whole), len(pages), spill.URI(id, 2), spill.TTL)},
		&mcp.ResourceLink{URI: spill.URI(id, 2), Name: fmt.Sprintf("result page 2 of %d", len(pages)), MIMEType: "text/plain"})
	out.StructuredContent = dropLarge(out.StructuredContent, limit)
	return &out
}

// readSpill answers resources/read of a kept result's page.
func (s *Server) readSpill(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "mcpgen://results/")
	id, num, ok2 := strings.Cut(rest, "/")
	n, err := strconv.Atoi(num)
	if !ok || !ok2 || err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, total, found := s.spill.Page(id, n, callerSubject(ctx))
	if !found {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if n < total {
		text += fmt.Sprintf("\n[page %d of %d; next: %s]", n, total, spill.URI(id, n+1))
	} else {
		text += fmt.Sprintf("\n[page %d of %d, the last]", n, total)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
}

// pagesOf cuts text into pages of at most limit bytes.
func pagesOf(text string, limit int) []string {
	var pages []string
	for text != "" {
		p := text
		if len(p) > limit {
			p = cutText(text, limit)
			if p == "" { // a character longer than the page: cannot happen with limit >= minResult
				p = text[:limit]
			}
		}
		pages = append(pages, p)
		text = text[len(p):]
	}
	return pages
}
