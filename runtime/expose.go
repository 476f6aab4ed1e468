package runtime

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// Choosing what to expose: tags on tools, resources, templates and
// prompts; toolsets naming subsets; a Selection (serve --toolset, --tools,
// --tags) narrowing a built server to one subset.

// exposure is what a Selection reads: the tags of everything, and the
// toolsets, by name.
type exposure struct {
	toolTags     map[string][]string // by tool name
	promptTags   map[string][]string // by prompt name
	resourceTags map[string][]string // by URI, and by URI template
	toolsets     map[string]*spec.Toolset
}

// matchTool checks that pat, a tool name or a glob, names a tool: a
// message and a hint when it does not.
func matchTool(pat string, tools []string) (msg, hint string) {
	if !strings.ContainsAny(pat, "*?[") {
		if slices.Contains(tools, pat) {
			return "", ""
		}
		return fmt.Sprintf("unknown tool %q", pat), knownHint(pat, tools, "tools")
	}
	if _, err := path.Match(pat, ""); err != nil {
		return fmt.Sprintf("invalid glob %q", pat), "* matches any characters, ? one, [abc] one of them"
	}
	for _, t := range tools {
		if ok, _ := path.Match(pat, t); ok {
			return "", ""
		}
	}
	return fmt.Sprintf("%q matches no tool", pat), knownHint(pat, tools, "tools")
}

// knownHint is a did-you-mean, or the list of what is known when short.
func knownHint(w string, known []string, what string) string {
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

// names lists the tool names and the tags in use, sorted.
func (x *exposure) names() (tools, tags []string) {
	seen := map[string]bool{}
	for _, m := range []map[string][]string{x.toolTags, x.promptTags, x.resourceTags} {
		for _, ts := range m {
			for _, t := range ts {
				if !seen[t] {
					seen[t] = true
					tags = append(tags, t)
				}
			}
		}
	}
	for name := range x.toolTags {
		tools = append(tools, name)
	}
	sort.Strings(tools)
	sort.Strings(tags)
	return tools, tags
}

// pick returns the set of tool names the patterns and tags select.
func (x *exposure) pick(patterns, tags []string) map[string]bool {
	out := map[string]bool{}
	for name, ts := range x.toolTags {
		if tagged(ts, tags) {
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

// tagged reports whether one of tags is among have.
func tagged(have, tags []string) bool {
	for _, t := range have {
		if slices.Contains(tags, t) {
			return true
		}
	}
	return false
}
