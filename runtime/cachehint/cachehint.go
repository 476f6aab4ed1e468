// Package cachehint computes the caching hints (`ttlMs`, `cacheScope`)
// that tell 2026-07-28 clients how long they may reuse a list or a read.
// The server's `cache_hint` is the default; a tool, prompt, resource or
// template may set its own. A list is as cacheable as its least cacheable
// entry: the shortest TTL, and private if any entry is private or the list
// depends on the caller's scopes. Every page of a list carries the same
// hint, as the spec requires.
package cachehint

import (
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/spec"
)

// Hint is a built caching hint: a TTL in milliseconds and a scope,
// "public" or "private".
type Hint struct {
	TTLMs int
	Scope string
}

// Public is the default hint: public, with no TTL.
var Public = Hint{Scope: "public"}

// Of returns c as a hint, def where c is nil.
func Of(c *spec.CacheHint, def Hint) Hint {
	if c == nil {
		return def
	}
	h := Hint{TTLMs: int(time.Duration(c.TTL) / time.Millisecond), Scope: c.Scope}
	if h.Scope == "" {
		h.Scope = "public"
	}
	return h
}

// Join returns the hint of a list holding entries of hints h and o.
func (h Hint) Join(o Hint) Hint {
	out := Hint{TTLMs: min(h.TTLMs, o.TTLMs), Scope: "public"}
	if h.Scope == "private" || o.Scope == "private" {
		out.Scope = "private"
	}
	return out
}

// Apply sets the hint on a result.
func (h Hint) Apply(c *mcp.Cacheable) {
	c.TTLMs, c.CacheScope = h.TTLMs, h.Scope
}

// Lists are the hints of the list results and server/discover.
type Lists struct {
	Server, Tools, Prompts, Resources, Templates Hint
}

// List joins the hints of a list's entries; scoped entries, over
// authenticated HTTP, make the list depend on the caller.
func List[T any](def Hint, entries []T, hint func(T) (*spec.CacheHint, []string), authenticated bool) Hint {
	out := Hint{TTLMs: def.TTLMs, Scope: def.Scope}
	first := true
	for _, e := range entries {
		c, scopes := hint(e)
		h := Of(c, def)
		if authenticated && len(scopes) > 0 {
			h.Scope = "private"
		}
		if first {
			out, first = h, false
		} else {
			out = out.Join(h)
		}
	}
	return out
}
