package runtime

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/cachehint"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/spec"
)

// finishProtocol settles what depends on everything built: the caching
// hints of lists and reads, and the request state signer.
func (s *Server) finishProtocol() {
	if s.states == nil {
		s.states = reqstate.NewSigner(nil, 0)
	}
	def := cachehint.Of(s.cacheCfg, cachehint.Public)
	authed := s.auth != nil
	s.cache = cachehint.Lists{Server: def,
		Tools:     cachehint.List(def, s.tools, func(t *plan.Tool) (*spec.CacheHint, []string) { return t.CacheCfg, t.Scopes }, authed),
		Prompts:   cachehint.List(def, s.prompts, func(p *plan.Prompt) (*spec.CacheHint, []string) { return p.CacheCfg, p.Scopes }, authed),
		Resources: cachehint.List(def, s.resources, func(r *plan.Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed),
		Templates: cachehint.List(def, s.templates, func(r *plan.Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed)}
	for _, r := range append(slices.Clip(s.resources), s.templates...) {
		r.Cache = cachehint.Of(r.CacheCfg, def)
		if authed && len(r.Scopes) > 0 {
			r.Cache.Scope = "private"
		}
	}
}
