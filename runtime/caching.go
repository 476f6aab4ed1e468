package runtime

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/spec"
)

// Caching hints (`ttlMs`, `cacheScope`) tell 2026-07-28 clients how long
// they may reuse a list or a read. The server's `cache_hint` is the default; a
// tool, prompt, resource or template may set its own. A list is as
// cacheable as its least cacheable entry: the shortest TTL, and private if
// any entry is private or the list depends on the caller's scopes. Every
// page of a list carries the same hint, as the spec requires.

// cacheHint is a built caching hint.
type cacheHint struct {
	ttlMs int
	scope string // "public" or "private"
}

var publicNow = cacheHint{scope: "public"}

// hintOf returns c as a hint, def where c is nil.
func hintOf(c *spec.CacheHint, def cacheHint) cacheHint {
	if c == nil {
		return def
	}
	h := cacheHint{ttlMs: int(time.Duration(c.TTL) / time.Millisecond), scope: c.Scope}
	if h.scope == "" {
		h.scope = "public"
	}
	return h
}

// join returns the hint of a list holding entries of hints h and o.
func (h cacheHint) join(o cacheHint) cacheHint {
	out := cacheHint{ttlMs: min(h.ttlMs, o.ttlMs), scope: "public"}
	if h.scope == "private" || o.scope == "private" {
		out.scope = "private"
	}
	return out
}

func (h cacheHint) apply(c *mcp.Cacheable) {
	c.TTLMs, c.CacheScope = h.ttlMs, h.scope
}

// listHints are the hints of the list results and server/discover.
type listHints struct {
	server, tools, prompts, resources, templates cacheHint
}

// listHint joins the hints of a list's entries; scoped entries, over
// authenticated HTTP, make the list depend on the caller.
func listHint[T any](def cacheHint, entries []T, hint func(T) (*spec.CacheHint, []string), authenticated bool) cacheHint {
	out := cacheHint{ttlMs: def.ttlMs, scope: def.scope}
	first := true
	for _, e := range entries {
		c, scopes := hint(e)
		h := hintOf(c, def)
		if authenticated && len(scopes) > 0 {
			h.scope = "private"
		}
		if first {
			out, first = h, false
		} else {
			out = out.join(h)
		}
	}
	return out
}

// setCacheable fills the hints of the results the go-sdk answers: the
// lists of prompts, resources and templates, and server/discover. tools/list
// and resources/read fill their own.
func (s *Server) setCacheable(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListPromptsRequest:
		s.cache.prompts.apply(c)
	case *mcp.ListResourcesRequest:
		s.cache.resources.apply(c)
	case *mcp.ListResourceTemplatesRequest:
		s.cache.templates.apply(c)
	case *mcp.ServerRequest[*mcp.DiscoverParams]:
		s.cache.server.apply(c)
	}
}
