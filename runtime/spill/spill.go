// Package spill deals with tool results over their max_result: cut to the
// cap with a note (cap.go), or, for a tool with `overflow: pages`, cut into
// pages kept for a while for resources/read of their links (spill.go).
//
// A tool with `overflow: pages` does not lose what is over its
// max_result: the whole text is kept for a while, the result holds its
// first page and a resource link to the next, and each page read through
// the results template ends with a link to the one after. The text is
// kept in this process's memory: with several replicas, a page read must
// reach the replica that answered the call (session affinity).
package spill

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Template is the URI template of kept results' pages.
const Template = "mcpgen://results/{id}/{page}"

// Kept results: how long, and how much in all; past either, the oldest go.
const (
	TTL      = 15 * time.Minute
	MaxBytes = 64 << 20
)

// Store keeps results cut into pages, in this process's memory.
type Store struct {
	mu      sync.Mutex
	entries map[string]*entry
	order   []string // ids, oldest first
	bytes   int
	now     func() time.Time
}

// entry is one kept result.
type entry struct {
	pages   []string
	caller  string // the subject that made the call; "" without auth
	expires time.Time
	size    int
}

// Keep stores a result's pages for caller and returns its id.
func (st *Store) Keep(pages []string, caller string) string {
	var raw [16]byte
	rand.Read(raw[:])
	id := hex.EncodeToString(raw[:])
	e := &entry{pages: pages, caller: caller, expires: st.now().Add(TTL)}
	for _, p := range pages {
		e.size += len(p)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.entries[id], st.order, st.bytes = e, append(st.order, id), st.bytes+e.size
	st.evict()
	return id
}

// evict drops expired entries, and the oldest while over MaxBytes.
func (st *Store) evict() {
	now := st.now()
	for len(st.order) > 0 {
		e := st.entries[st.order[0]]
		if e != nil && now.Before(e.expires) && st.bytes <= MaxBytes {
			return
		}
		if e != nil {
			st.bytes -= e.size
		}
		delete(st.entries, st.order[0])
		st.order = st.order[1:]
	}
}

// Page returns page n (1-based) of result id and how many it has, for
// caller; false when it is not kept (expired, never made, another caller's).
func (st *Store) Page(id string, n int, caller string) (string, int, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.evict()
	e := st.entries[id]
	if e == nil || e.caller != caller || n < 1 || n > len(e.pages) {
		return "", 0, false
	}
	return e.pages[n-1], len(e.pages), true
}

// URI is the URI of page n of result id.
func URI(id string, n int) string { return fmt.Sprintf("mcpgen://results/%s/%d", id, n) }

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{entries: map[string]*entry{}, now: time.Now}
}

// Spill keeps the text of res, over limit, for caller, and returns its
// first page with a link to the next.
func (st *Store) Spill(res *mcp.CallToolResult, limit int, caller string) *mcp.CallToolResult {
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
	pages := paginate(whole, limit)
	id := st.Keep(pages, caller)
	out := *res
	out.Content = append(other, &mcp.TextContent{Text: pages[0]},
		&mcp.TextContent{Text: fmt.Sprintf("[result cut: %d bytes in %d pages; this is page 1. Read the next with resources/read of %s; each page ends with the link to the one after. Pages are kept for %v.]",
			len(whole), len(pages), URI(id, 2), TTL)},
		&mcp.ResourceLink{URI: URI(id, 2), Name: fmt.Sprintf("result page 2 of %d", len(pages)), MIMEType: "text/plain"})
	out.StructuredContent = dropLarge(out.StructuredContent, limit)
	return &out
}

// Read answers resources/read of a kept result's page, for caller.
func (st *Store) Read(uri, caller string) (*mcp.ReadResourceResult, error) {
	rest, ok := strings.CutPrefix(uri, "mcpgen://results/")
	id, num, ok2 := strings.Cut(rest, "/")
	n, err := strconv.Atoi(num)
	if !ok || !ok2 || err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, total, found := st.Page(id, n, caller)
	if !found {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if n < total {
		text += fmt.Sprintf("\n[page %d of %d; next: %s]", n, total, URI(id, n+1))
	} else {
		text += fmt.Sprintf("\n[page %d of %d, the last]", n, total)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
}
