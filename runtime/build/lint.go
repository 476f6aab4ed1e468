package build

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/build/lint"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// checkLint checks server.lint's rule names and levels.
func (b *builder) checkLint(f *load.File, levels map[string]string) {
	names := lint.Names()
	for _, k := range slices.Sorted(maps.Keys(levels)) {
		p := "server.lint." + k
		if !slices.Contains(names, k) {
			b.diag(f, load.Error, p, fmt.Sprintf("unknown lint rule %q", k),
				cmp.Or(suggest.DidYouMean(k, names), "the rules are "+strings.Join(names, ", ")))
			continue
		}
		if v := levels[k]; v != "warning" && v != "error" && v != "off" {
			b.errorf(f, p, "expected warning, error or off, got %q", v)
		}
	}
	b.lintLevels = levels
}

// lint runs the description lint over the built tools (validate), reporting
// at the place in the config nearest to what a rule found.
func (b *builder) lint() {
	if !b.opts.Lint || b.ds.Errors() > 0 {
		return
	}
	tools := make([]*lint.Tool, 0, len(b.plan.Tools))
	at := map[*lint.Tool]toolPlace{}
	for _, t := range b.plan.Tools {
		place := b.toolAt[t.Def.Name]
		lt := &lint.Tool{Def: t, Spec: place.t}
		if raw, ok := t.Def.InputSchema.(json.RawMessage); ok {
			json.Unmarshal(raw, &lt.Schema)
		}
		tools = append(tools, lt)
		at[lt] = place
	}
	lint.Run(tools, b.lintLevels, func(t *lint.Tool, sub string, sev load.Severity, msg, hint string) {
		place := at[t]
		path := place.path + sub
		for !place.f.Written(path) && path != place.path {
			path = path[:max(strings.LastIndexAny(path, ".["), len(place.path))]
		}
		b.diag(place.f, sev, path, msg, hint)
	})
}
