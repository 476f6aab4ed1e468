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
	if s.plan.States == nil {
		s.plan.States = reqstate.NewSigner(nil, 0)
	}
	def := cachehint.Of(s.plan.CacheCfg, cachehint.Public)
	authed := s.plan.Auth != nil
	s.plan.Cache = cachehint.Lists{Server: def,
		Tools:     cachehint.List(def, s.plan.Tools, func(t *plan.Tool) (*spec.CacheHint, []string) { return t.CacheCfg, t.Scopes }, authed),
		Prompts:   cachehint.List(def, s.plan.Prompts, func(p *plan.Prompt) (*spec.CacheHint, []string) { return p.CacheCfg, p.Scopes }, authed),
		Resources: cachehint.List(def, s.plan.Resources, func(r *plan.Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed),
		Templates: cachehint.List(def, s.plan.Templates, func(r *plan.Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed)}
	for _, r := range append(slices.Clip(s.plan.Resources), s.plan.Templates...) {
		r.Cache = cachehint.Of(r.CacheCfg, def)
		if authed && len(r.Scopes) > 0 {
			r.Cache.Scope = "private"
		}
	}
}
