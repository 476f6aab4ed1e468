package build

import (
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/mcpgen/mcpgen/runtime/expose"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// Tool counts past which clients struggle: some editors use about 40
// tools well, others refuse more than 128.
const (
	crowdedTools = 40
	refusedTools = 128
)

var tagPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// expose checks the tags and toolsets of the files and warns when one
// server, or one toolset, offers more tools than clients handle well.
func (b *builder) expose(files []*load.File) {
	x := &expose.Exposure{ToolTags: map[string][]string{}, PromptTags: map[string][]string{},
		ResourceTags: map[string][]string{}, Toolsets: map[string]*spec.Toolset{}}
	b.plan.Exposure = x
	for _, f := range files {
		c := f.Config
		tagsOf(b, f, "tools", c.Tools, x.ToolTags, func(t *spec.Tool) (string, []string) { return t.Name, t.Tags })
		tagsOf(b, f, "prompts", c.Prompts, x.PromptTags, func(p *spec.Prompt) (string, []string) { return p.Name, p.Tags })
		tagsOf(b, f, "resources", c.Resources, x.ResourceTags,
			func(r *spec.Resource) (string, []string) { return r.URI, r.Tags })
		tagsOf(b, f, "resource_templates", c.ResourceTemplates, x.ResourceTags,
			func(r *spec.ResourceTemplate) (string, []string) { return r.URITemplate, r.Tags })
	}
	for _, f := range files {
		b.toolsets(f, x)
	}
	b.toolCount(files)
}

// tagsOf checks the tags of the entries of list (at path) and records
// them in into, by the entry's name or URI.
func tagsOf[T any](b *builder, f *load.File, path string, list []*T, into map[string][]string, of func(*T) (string, []string)) {
	for i, e := range list {
		if e == nil {
			continue
		}
		key, tags := of(e)
		into[key] = tags
		for j, t := range tags {
			if !tagPattern.MatchString(t) {
				b.diag(f, load.Error, fmt.Sprintf("%s[%d].tags[%d]", path, i, j), fmt.Sprintf("invalid tag %q", t),
					"use 1 to 64 letters, digits, '_', '-', '.' or ':'")
			}
		}
	}
}

// toolsets checks the toolsets of f: every tool and tag they name exists,
// and a toolset is defined once.
func (b *builder) toolsets(f *load.File, x *expose.Exposure) {
	names := make([]string, 0, len(f.Config.Toolsets))
	for name := range f.Config.Toolsets {
		names = append(names, name)
	}
	sort.Strings(names)
	tools, tags := x.Names()
	for _, name := range names {
		ts, p := f.Config.Toolsets[name], "toolsets."+name
		if !b.unique(f, "toolset", name, p) {
			continue
		}
		if ts == nil || len(ts.Tools)+len(ts.Tags) == 0 {
			b.diag(f, load.Error, p, fmt.Sprintf("toolset %q selects nothing", name), "give it tools, tags or both")
			continue
		}
		for i, pat := range ts.Tools {
			if msg, hint := expose.MatchTool(pat, tools); msg != "" {
				b.diag(f, load.Error, fmt.Sprintf("%s.tools[%d]", p, i), msg, hint)
			}
		}
		for i, tag := range ts.Tags {
			if !slices.Contains(tags, tag) {
				b.diag(f, load.Error, fmt.Sprintf("%s.tags[%d]", p, i), fmt.Sprintf("no tool, resource or prompt has the tag %q", tag),
					expose.KnownHint(tag, tags, "tags"))
			}
		}
		x.Toolsets[name] = ts
		if n := len(x.Pick(ts.Tools, ts.Tags)); n > crowdedTools {
			b.diag(f, load.Warning, p, fmt.Sprintf("toolset %q has %d tools", name, n), crowdHint(n))
		}
	}
}

// toolCount warns when the whole config has more tools than clients
// handle well, at the first file's tools.
func (b *builder) toolCount(files []*load.File) {
	n := len(b.plan.Tools)
	if n <= crowdedTools {
		return
	}
	for _, f := range files {
		if len(f.Config.Tools) > 0 {
			b.diag(f, load.Warning, "tools", fmt.Sprintf("the server lists %d tools", n), crowdHint(n))
			return
		}
	}
}

func crowdHint(n int) string {
	limit := fmt.Sprintf("some editors use about %d tools well", crowdedTools)
	if n > refusedTools {
		limit = fmt.Sprintf("some clients refuse more than %d tools", refusedTools)
	}
	return limit + "; serve subsets with toolsets or tags (serve --toolset, --tags)"
}
