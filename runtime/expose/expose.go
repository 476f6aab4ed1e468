// Package expose reads what a config exposes: tags on tools, resources,
// templates and prompts, and toolsets naming subsets, so that a selection
// (serve --toolset, --tools, --tags) can narrow a built server to one.
package expose

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// Exposure is what a selection reads: the tags of everything, and the
// toolsets, by name. The build fills it; nothing changes it afterwards.
type Exposure struct {
	ToolTags     map[string][]string // by tool name
	PromptTags   map[string][]string // by prompt name
	ResourceTags map[string][]string // by URI, and by URI template
	Toolsets     map[string]*spec.Toolset
}

// MatchTool checks that pat, a tool name or a glob, names a tool: a
// message and a hint when it does not.
func MatchTool(pat string, tools []string) (msg, hint string) {
	if !strings.ContainsAny(pat, "*?[") {
		if slices.Contains(tools, pat) {
			return "", ""
		}
		return fmt.Sprintf("unknown tool %q", pat), KnownHint(pat, tools, "tools")
	}
	if _, err := path.Match(pat, ""); err != nil {
		return fmt.Sprintf("invalid glob %q", pat), "* matches any characters, ? one, [abc] one of them"
	}
	for _, t := range tools {
		if ok, _ := path.Match(pat, t); ok {
			return "", ""
		}
	}
	return fmt.Sprintf("%q matches no tool", pat), KnownHint(pat, tools, "tools")
}

// KnownHint is a did-you-mean, or the list of what is known when short.
func KnownHint(w string, known []string, what string) string {
	if h := suggest.DidYouMean(w, known); h != "" {
		return h
	}
	switch {
	case len(known) == 0:
		return "there are no " + what
	case len(known) <= 10:
		return "known " + what + ": " + strings.Join(known, ", ")
	}
	return ""
}

// Names lists the tool names and the tags in use, sorted.
func (x *Exposure) Names() (tools, tags []string) {
	seen := map[string]bool{}
	for _, m := range []map[string][]string{x.ToolTags, x.PromptTags, x.ResourceTags} {
		for _, ts := range m {
			for _, t := range ts {
				if !seen[t] {
					seen[t] = true
					tags = append(tags, t)
				}
			}
		}
	}
	for name := range x.ToolTags {
		tools = append(tools, name)
	}
	sort.Strings(tools)
	sort.Strings(tags)
	return tools, tags
}

// Pick returns the set of tool names the patterns and tags select.
func (x *Exposure) Pick(patterns, tags []string) map[string]bool {
	out := map[string]bool{}
	for name, ts := range x.ToolTags {
		if Tagged(ts, tags) {
			out[name] = true
			continue
		}
		for _, p := range patterns {
			if ok, _ := path.Match(p, name); ok || p == name {
				out[name] = true
				break
			}
		}
	}
	return out
}

// Tagged reports whether one of tags is among have.
func Tagged(have, tags []string) bool {
	for _, t := range have {
		if slices.Contains(tags, t) {
			return true
		}
	}
	return false
}
