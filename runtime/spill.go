package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// A tool with `overflow: pages` does not lose what is over its
// max_result: the whole text is kept for a while, the result holds its
// first page and a resource link to the next, and each page read through
// the results template ends with a link to the one after. The text is
// kept in this process's memory: with several replicas, a page read must
// reach the replica that answered the call (session affinity).

// spillTemplate is the URI template of kept results' pages.
const spillTemplate = "mcpgen://results/{id}/{page}"

// Kept results: how long, and how much in all; past either, the oldest go.
const (
	spillTTL      = 15 * time.Minute
	spillMaxBytes = 64 << 20
)

// spillStore keeps results cut into pages.
type spillStore struct {
	mu      sync.Mutex
	entries map[string]*spilled
	order   []string // ids, oldest first
	bytes   int
	now     func() time.Time
}

// spilled is one kept result.
type spilled struct {
	pages   []string
	caller  string // the subject that made the call; "" without auth
	expires time.Time
	size    int
}

// keep stores text cut into pages of at most limit bytes and returns its id.
func (st *spillStore) keep(text string, limit int, caller string) (string, []string) {
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
	var raw [16]byte
	rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	e := &spilled{pages: pages, caller: caller, expires: st.now().Add(spillTTL)}
	for _, p := range pages {
		e.size += len(p)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.entries[id], st.order, st.bytes = e, append(st.order, id), st.bytes+e.size
	st.evict()
	return id, pages
}

// evict drops expired entries, and the oldest while over spillMaxBytes.
func (st *spillStore) evict() {
	now := st.now()
	for len(st.order) > 0 {
		e := st.entries[st.order[0]]
		if e != nil && now.Before(e.expires) && st.bytes <= spillMaxBytes {
			return
		}
		if e != nil {
			st.bytes -= e.size
		}
		delete(st.entries, st.order[0])
		st.order = st.order[1:]
	}
}

// page returns page n (1-based) of result id and how many it has, for
// caller; false when it is not kept (expired, never made, another caller's).
func (st *spillStore) page(id string, n int, caller string) (string, int, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.evict()
	e := st.entries[id]
	if e == nil || e.caller != caller || n < 1 || n > len(e.pages) {
		return "", 0, false
	}
	return e.pages[n-1], len(e.pages), true
}

// spillURI is the URI of page n of result id.
func spillURI(id string, n int) string { return fmt.Sprintf("mcpgen://results/%s/%d", id, n) }

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
	id, pages := s.spill.keep(whole, limit, callerSubject(ctx))
	out := *res
	out.Content = append(other, &mcp.TextContent{Text: pages[0]},
		&mcp.TextContent{Text: fmt.Sprintf("[result cut: %d bytes in %d pages; this is page 1. Read the next with resources/read of %s; each page ends with the link to the one after. Pages are kept for %v.]",
			len(whole), len(pages), spillURI(id, 2), spillTTL)},
		&mcp.ResourceLink{URI: spillURI(id, 2), Name: fmt.Sprintf("result page 2 of %d", len(pages)), MIMEType: "text/plain"})
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
	text, total, found := s.spill.page(id, n, callerSubject(ctx))
	if !found {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if n < total {
		text += fmt.Sprintf("\n[page %d of %d; next: %s]", n, total, spillURI(id, n+1))
	} else {
		text += fmt.Sprintf("\n[page %d of %d, the last]", n, total)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
}
