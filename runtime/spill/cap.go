package spill

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// TextSize counts the bytes of the text blocks of cs.
func TextSize(cs []mcp.Content) int {
	total := 0
	for _, c := range cs {
		if tc, ok := c.(*mcp.TextContent); ok {
			total += len(tc.Text)
		}
	}
	return total
}

// Cap cuts the text of res to limit bytes, with a note saying so.
func Cap(res *mcp.CallToolResult, limit int) *mcp.CallToolResult {
	total, budget := TextSize(res.Content), limit
	var kept []mcp.Content
	for _, c := range res.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok {
			kept = append(kept, c)
			continue
		}
		if budget <= 0 {
			continue
		}
		text := tc.Text
		if len(text) > budget {
			text = cutText(text, budget)
		}
		budget -= len(text)
		kept = append(kept, &mcp.TextContent{Text: text, Annotations: tc.Annotations, Meta: tc.Meta})
	}
	kept = append(kept, &mcp.TextContent{Text: fmt.Sprintf(
		"[result cut: %d of %d bytes shown. Call again asking for less (a narrower query, a smaller limit, one page) to see the rest.]",
		limit-budget, total)})
	out := *res
	out.Content = kept
	out.StructuredContent = dropLarge(out.StructuredContent, limit)
	return &out
}

// dropLarge returns x, or nil when its JSON is longer than limit.
func dropLarge(x any, limit int) any {
	if x == nil {
		return nil
	}
	if data, err := json.Marshal(x); err != nil || len(data) > limit {
		return nil
	}
	return x
}

// cutText returns the start of s, at most n bytes, ending at a line end
// when one is in the last quarter, and never inside a character.
func cutText(s string, n int) string {
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s[len(s)-min(len(s), utf8.UTFMax):]) {
		s = s[:len(s)-1]
	}
	if i := strings.LastIndexByte(s, '\n'); i >= n*3/4 {
		s = s[:i+1]
	}
	return s
}

// paginate cuts text into pages of at most limit bytes.
func paginate(text string, limit int) []string {
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
