package build

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// LintRule is one check of what a model reads of a tool. The rules are
// declared once, in LintRules: their names are what server.lint accepts,
// the README lists them (a test checks), and validate runs them.
type LintRule struct {
	Name string
	// Says is what the rule checks, for the docs.
	Says string
	// Hint says how to fix what it finds.
	Hint  string
	check func(l *linter, t *lintTool)
}

// LintRules are the description lint's rules, warnings unless server.lint
// says otherwise.
var LintRules = []LintRule{
	{"vague-description", "a tool's description says what it does and what it returns, in more than a few words",
		"start with a verb and say what the tool returns, e.g. \"Lists the open pull requests of a repository, newest first\"", (*linter).vague},
	{"argument-description", "every argument has a description",
		"say what the argument is and the values it takes; the model sees nothing else", (*linter).argDescriptions},
	{"similar-names", "no two tools' names differ only by case or separators",
		"a model confuses them: name each after what it does", (*linter).similarNames},
	{"copied-description", "no two tools share a description",
		"a model choosing between them has nothing to go on: say how each differs", (*linter).copiedDescriptions},
	{"undocumented-enum", "an argument with a fixed set of values says what they mean",
		"name the values in the argument's description and what each does", (*linter).enums},
	{"strict-schema", "an input schema passes clients that validate strictly (each property typed, `required` naming only declared properties)",
		"give each property a type (or anyOf/oneOf/$ref), and list in required only declared properties", (*linter).strict},
}

// lintTool is what the rules see of a tool.
type lintTool struct {
	def    *plan.Tool
	at     toolPlace
	schema map[string]any // the input schema as tools/list sends it
}

// linter runs the rules and reports what they find.
type linter struct {
	b      *builder
	rule   *LintRule
	levels map[string]string // server.lint
	tools  []*lintTool
	seen   map[string]*lintTool // by the current rule's key
}

// checkLint checks server.lint's rule names and levels.
func (b *builder) checkLint(f *load.File, levels map[string]string) {
	names := make([]string, len(LintRules))
	for i, r := range LintRules {
		names[i] = r.Name
	}
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

// lint runs every rule that is not off over the built tools (validate).
func (b *builder) lint() {
	if !b.opts.Lint || b.ds.Errors() > 0 {
		return
	}
	l := &linter{b: b, levels: b.lintLevels}
	for _, t := range b.plan.Tools {
		lt := &lintTool{def: t, at: b.toolAt[t.Def.Name]}
		if raw, ok := t.Def.InputSchema.(json.RawMessage); ok {
			json.Unmarshal(raw, &lt.schema)
		}
		l.tools = append(l.tools, lt)
	}
	for i := range LintRules {
		l.rule = &LintRules[i]
		if l.levels[l.rule.Name] == "off" {
			continue
		}
		l.seen = map[string]*lintTool{}
		for _, t := range l.tools {
			l.rule.check(l, t)
		}
	}
}

// report reports what the current rule found at path below the tool.
func (l *linter) report(t *lintTool, sub, msg string) {
	sev := load.Warning
	if l.levels[l.rule.Name] == "error" {
		sev = load.Error
	}
	path := t.at.path + sub
	for !t.at.f.Written(path) && path != t.at.path {
		path = path[:max(strings.LastIndexAny(path, ".["), len(t.at.path))]
	}
	l.b.diag(t.at.f, sev, path, msg+" ("+l.rule.Name+")", l.rule.Hint)
}
