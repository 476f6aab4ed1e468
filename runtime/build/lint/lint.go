// Package lint checks what a model reads of each tool: its description, its
// arguments' descriptions, names and schemas. The rules are declared once,
// in Rules: their names are what server.lint accepts, the README lists them
// (a test checks), and validate runs them.
package lint

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
)

// Rule is one check of what a model reads of a tool.
type Rule struct {
	Name string
	// Says is what the rule checks, for the docs.
	Says string
	// Hint says how to fix what it finds.
	Hint  string
	check func(l *linter, t *Tool)
}

// Rules are the description lint's rules, warnings unless server.lint
// says otherwise.
var Rules = []Rule{
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

// Names are the rules' names, in order.
func Names() []string {
	names := make([]string, len(Rules))
	for i, r := range Rules {
		names[i] = r.Name
	}
	return names
}

// Tool is what the rules see of a tool.
type Tool struct {
	Def *plan.Tool
	// Spec is the tool's entry in the config: where its arguments are
	// written (args or input_schema).
	Spec *spec.Tool
	// Schema is the input schema as tools/list sends it.
	Schema map[string]any
}

// A Reporter is told what a rule found in tool t at sub, a path below the
// tool's entry (".description", ".args[2]").
type Reporter func(t *Tool, sub string, sev load.Severity, msg, hint string)

// linter runs the rules and reports what they find.
type linter struct {
	rule   *Rule
	levels map[string]string // server.lint
	report Reporter
	seen   map[string]*Tool // by the current rule's key
}

// Run runs every rule that levels (server.lint) does not switch off over
// tools, in order, telling report what each finds: a warning, or an error
// for a rule raised to one.
func Run(tools []*Tool, levels map[string]string, report Reporter) {
	l := &linter{levels: levels, report: report}
	for i := range Rules {
		l.rule = &Rules[i]
		if l.levels[l.rule.Name] == "off" {
			continue
		}
		l.seen = map[string]*Tool{}
		for _, t := range tools {
			l.rule.check(l, t)
		}
	}
}

// found reports what the current rule found at sub below the tool.
func (l *linter) found(t *Tool, sub, msg string) {
	sev := load.Warning
	if l.levels[l.rule.Name] == "error" {
		sev = load.Error
	}
	l.report(t, sub, sev, msg+" ("+l.rule.Name+")", l.rule.Hint)
}

// minDescriptionWords is the fewest words a description that says what a
// tool does and returns can have.
const minDescriptionWords = 4

// vague: a description of a few words, or one that repeats the name.
func (l *linter) vague(t *Tool) {
	d := strings.TrimSpace(t.Def.Def.Description)
	words := strings.Fields(d)
	switch {
	case len(words) < minDescriptionWords:
		l.found(t, ".description", fmt.Sprintf("the description of tool %q is %d words: it cannot say what the tool does and returns", t.Def.Def.Name, len(words)))
	case squash(d) == squash(t.Def.Def.Name) || squash(d) == squash(t.Def.Def.Title):
		l.found(t, ".description", fmt.Sprintf("the description of tool %q only repeats its name", t.Def.Def.Name))
	}
}

// squash lowercases s and drops everything but letters and digits.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			return r
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
}

// properties returns the input schema's properties, by sorted name.
func (t *Tool) properties() ([]string, map[string]map[string]any) {
	props, _ := t.Schema["properties"].(map[string]any)
	out := map[string]map[string]any{}
	for k, v := range props {
		if m, ok := v.(map[string]any); ok {
			out[k] = m
		}
	}
	return slices.Sorted(maps.Keys(out)), out
}

// argPath is where argument name is written: args[i] or
// input_schema.properties.name.
func (t *Tool) argPath(name string) string {
	if st := t.Spec; st != nil && st.InputSchema == nil {
		for i, a := range st.Args {
			if a != nil && a.Name == name {
				return fmt.Sprintf(".args[%d]", i)
			}
		}
	}
	return ".input_schema.properties." + name
}

func (l *linter) argDescriptions(t *Tool) {
	names, props := t.properties()
	for _, n := range names {
		if d, _ := props[n]["description"].(string); strings.TrimSpace(d) == "" {
			l.found(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q has no description", n, t.Def.Def.Name))
		}
	}
}

func (l *linter) similarNames(t *Tool) {
	key := squash(t.Def.Def.Name)
	if first, ok := l.seen[key]; ok {
		l.found(t, ".name", fmt.Sprintf("tool %q differs from %q only by case or separators", t.Def.Def.Name, first.Def.Def.Name))
		return
	}
	l.seen[key] = t
}

func (l *linter) copiedDescriptions(t *Tool) {
	key := strings.Join(strings.Fields(strings.ToLower(t.Def.Def.Description)), " ")
	if key == "" {
		return
	}
	if first, ok := l.seen[key]; ok {
		l.found(t, ".description", fmt.Sprintf("tool %q has the same description as %q", t.Def.Def.Name, first.Def.Def.Name))
		return
	}
	l.seen[key] = t
}

// enums: an argument with an enum whose description names none of the
// values. (One without a description is argument-description's.)
func (l *linter) enums(t *Tool) {
	names, props := t.properties()
	for _, n := range names {
		enum, _ := props[n]["enum"].([]any)
		d, _ := props[n]["description"].(string)
		if len(enum) < 2 || strings.TrimSpace(d) == "" {
			continue
		}
		if !slices.ContainsFunc(enum, func(v any) bool { return strings.Contains(d, fmt.Sprint(v)) }) {
			l.found(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q takes %d values that its description does not name", n, t.Def.Def.Name, len(enum)))
		}
	}
}

// typing are the keywords that give a property a type.
var typing = []string{"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"}

// strict: what clients that validate schemas strictly refuse.
func (l *linter) strict(t *Tool) {
	names, props := t.properties()
	for _, n := range names {
		if !slices.ContainsFunc(typing, func(k string) bool { _, ok := props[n][k]; return ok }) {
			l.found(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q has no type", n, t.Def.Def.Name))
		}
	}
	req, _ := t.Schema["required"].([]any)
	for i, r := range req {
		if _, ok := props[fmt.Sprint(r)]; !ok {
			l.found(t, fmt.Sprintf(".input_schema.required[%d]", i), fmt.Sprintf("tool %q requires %q, which is not among its properties", t.Def.Def.Name, r))
		}
	}
}
