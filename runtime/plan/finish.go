package plan

import (
	"slices"

	"github.com/mcpgen/mcpgen/runtime/cachehint"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/spec"
)

// Finish settles what depends on everything built: the caching hints of
// lists and reads, and the request state signer. Narrowing what is served
// (runtime's Select) calls it again.
func (p *Plan) Finish() {
	if p.States == nil {
		p.States = reqstate.NewSigner(nil, 0)
	}
	p.settleSkills()
	def := cachehint.Of(p.CacheCfg, cachehint.Public)
	authed := p.Auth != nil
	p.Cache = cachehint.Lists{Server: def,
		Tools:     cachehint.List(def, p.Tools, func(t *Tool) (*spec.CacheHint, []string) { return t.CacheCfg, t.Scopes }, authed),
		Prompts:   cachehint.List(def, p.Prompts, func(pr *Prompt) (*spec.CacheHint, []string) { return pr.CacheCfg, pr.Scopes }, authed),
		Resources: cachehint.List(def, p.Resources, func(r *Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed),
		Templates: cachehint.List(def, p.Templates, func(r *Resource) (*spec.CacheHint, []string) { return r.CacheCfg, r.Scopes }, authed)}
	p.SkillHint = cachehint.List(def, p.Skills, func(k *Skill) (*spec.CacheHint, []string) { return nil, p.skillScopes(k) }, authed)
	for _, r := range append(slices.Clip(p.Resources), p.Templates...) {
		r.Cache = cachehint.Of(r.CacheCfg, def)
		if authed && len(r.Scopes) > 0 {
			r.Cache.Scope = "private"
		}
	}
}
