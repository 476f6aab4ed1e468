package runtime

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/cachehint"
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
		Tools:     cachehint.List(def, s.tools, func(t *tool) (*spec.CacheHint, []string) { return t.cacheCfg, t.scopes }, authed),
		Prompts:   cachehint.List(def, s.prompts, func(p *prompt) (*spec.CacheHint, []string) { return p.cacheCfg, p.scopes }, authed),
		Resources: cachehint.List(def, s.resources, func(r *resource) (*spec.CacheHint, []string) { return r.cacheCfg, r.scopes }, authed),
		Templates: cachehint.List(def, s.templates, func(r *resource) (*spec.CacheHint, []string) { return r.cacheCfg, r.scopes }, authed)}
	for _, r := range append(slices.Clip(s.resources), s.templates...) {
		r.cache = cachehint.Of(r.cacheCfg, def)
		if authed && len(r.scopes) > 0 {
			r.cache.Scope = "private"
		}
	}
}

// Client capabilities a tool may need.
const (
	capSampling    = "sampling"
	capElicitation = "elicitation"
	capRoots       = "roots"
	// what some step forms need beyond their capability
	capSamplingTools  = "sampling.tools"
	capElicitationURL = "elicitation.url"
)
