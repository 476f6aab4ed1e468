package runtime

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/expose"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// Selection narrows a server to a subset (`mcpgen serve --toolset,
// --tools, --tags`): the tools named or matched, those carrying one of the
// tags, and those of the toolset. Resources, templates and prompts with
// tags are served when one of their tags is selected; those without tags
// always are.
type Selection struct {
	// Toolset names one of the config's toolsets.
	Toolset string
	// Tools are tool names or globs (`github_*`).
	Tools []string
	// Tags select what carries one of them.
	Tags []string
}

// Empty reports whether the selection leaves the server whole.
func (sel Selection) Empty() bool { return sel.Toolset == "" && len(sel.Tools)+len(sel.Tags) == 0 }

// Select serves only the selection. Its names are checked: an unknown
// toolset, tool or tag is an error that suggests the nearest known one.
func (s *Server) Select(sel Selection) error {
	if sel.Empty() {
		return nil
	}
	x := s.plan.Exposure
	tools, tags := x.Names()
	patterns, want := slices.Clone(sel.Tools), slices.Clone(sel.Tags)
	if sel.Toolset != "" {
		ts, ok := x.Toolsets[sel.Toolset]
		if !ok {
			known := slices.Sorted(maps.Keys(x.Toolsets))
			return fmt.Errorf("--toolset: unknown toolset %q; %s", sel.Toolset, expose.KnownHint(sel.Toolset, known, "toolsets"))
		}
		patterns, want = append(patterns, ts.Tools...), append(want, ts.Tags...)
	}
	for _, p := range sel.Tools {
		if msg, hint := expose.MatchTool(p, tools); msg != "" {
			return fmt.Errorf("--tools: %s%s", msg, semi(hint))
		}
	}
	for _, t := range sel.Tags {
		if !slices.Contains(tags, t) {
			return fmt.Errorf("--tags: no tool, resource or prompt has the tag %q%s", t, semi(expose.KnownHint(t, tags, "tags")))
		}
	}
	s.narrow(x.Pick(patterns, want), want)
	return nil
}

func semi(hint string) string {
	if hint == "" {
		return ""
	}
	return "; " + hint
}

// narrow drops the tools not in picked, and the resources, templates and
// prompts whose tags are not among tags. Sampling steps still reach the
// tools they offer (allTools).
func (s *Server) narrow(picked map[string]bool, tags []string) {
	x := s.plan.Exposure
	s.plan.Tools = slices.DeleteFunc(s.plan.Tools, func(t *plan.Tool) bool { return !picked[t.Def.Name] })
	s.plan.ToolIndex = make(map[string]*plan.Tool, len(s.plan.Tools))
	for _, t := range s.plan.Tools {
		s.plan.ToolIndex[t.Def.Name] = t
	}
	hidden := func(have []string) bool { return len(have) > 0 && !expose.Tagged(have, tags) }
	s.plan.Prompts = slices.DeleteFunc(s.plan.Prompts, func(p *plan.Prompt) bool { return hidden(x.PromptTags[p.Def.Name]) })
	s.plan.Resources = slices.DeleteFunc(s.plan.Resources, func(r *plan.Resource) bool { return hidden(x.ResourceTags[r.Def.URI]) })
	s.plan.Templates = slices.DeleteFunc(s.plan.Templates, func(r *plan.Resource) bool { return hidden(x.ResourceTags[r.Tmpl.URITemplate]) })
	s.plan.Finish() // list hints of what is left
}
