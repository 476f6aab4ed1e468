package build

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// minDescriptionWords is the fewest words a description that says what a
// tool does and returns can have.
const minDescriptionWords = 4

// vague: a description of a few words, or one that repeats the name.
func (l *linter) vague(t *lintTool) {
	d := strings.TrimSpace(t.def.Def.Description)
	words := strings.Fields(d)
	switch {
	case len(words) < minDescriptionWords:
		l.report(t, ".description", fmt.Sprintf("the description of tool %q is %d words: it cannot say what the tool does and returns", t.def.Def.Name, len(words)))
	case squash(d) == squash(t.def.Def.Name) || squash(d) == squash(t.def.Def.Title):
		l.report(t, ".description", fmt.Sprintf("the description of tool %q only repeats its name", t.def.Def.Name))
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
func (t *lintTool) properties() ([]string, map[string]map[string]any) {
	props, _ := t.schema["properties"].(map[string]any)
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
func (t *lintTool) argPath(name string) string {
	if st := t.at.t; st != nil && st.InputSchema == nil {
		for i, a := range st.Args {
			if a != nil && a.Name == name {
				return fmt.Sprintf(".args[%d]", i)
			}
		}
	}
	return ".input_schema.properties." + name
}

func (l *linter) argDescriptions(t *lintTool) {
	names, props := t.properties()
	for _, n := range names {
		if d, _ := props[n]["description"].(string); strings.TrimSpace(d) == "" {
			l.report(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q has no description", n, t.def.Def.Name))
		}
	}
}

func (l *linter) similarNames(t *lintTool) {
	key := squash(t.def.Def.Name)
	if first, ok := l.seen[key]; ok {
		l.report(t, ".name", fmt.Sprintf("tool %q differs from %q only by case or separators", t.def.Def.Name, first.def.Def.Name))
		return
	}
	l.seen[key] = t
}

func (l *linter) copiedDescriptions(t *lintTool) {
	key := strings.Join(strings.Fields(strings.ToLower(t.def.Def.Description)), " ")
	if key == "" {
		return
	}
	if first, ok := l.seen[key]; ok {
		l.report(t, ".description", fmt.Sprintf("tool %q has the same description as %q", t.def.Def.Name, first.def.Def.Name))
		return
	}
	l.seen[key] = t
}

// enums: an argument with an enum whose description names none of the
// values. (One without a description is argument-description's.)
func (l *linter) enums(t *lintTool) {
	names, props := t.properties()
	for _, n := range names {
		enum, _ := props[n]["enum"].([]any)
		d, _ := props[n]["description"].(string)
		if len(enum) < 2 || strings.TrimSpace(d) == "" {
			continue
		}
		if !slices.ContainsFunc(enum, func(v any) bool { return strings.Contains(d, fmt.Sprint(v)) }) {
			l.report(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q takes %d values that its description does not name", n, t.def.Def.Name, len(enum)))
		}
	}
}

// typing are the keywords that give a property a type.
var typing = []string{"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"}

// strict: what clients that validate schemas strictly refuse.
func (l *linter) strict(t *lintTool) {
	names, props := t.properties()
	for _, n := range names {
		if !slices.ContainsFunc(typing, func(k string) bool { _, ok := props[n][k]; return ok }) {
			l.report(t, t.argPath(n), fmt.Sprintf("argument %q of tool %q has no type", n, t.def.Def.Name))
		}
	}
	req, _ := t.schema["required"].([]any)
	for i, r := range req {
		if _, ok := props[fmt.Sprint(r)]; !ok {
			l.report(t, fmt.Sprintf(".input_schema.required[%d]", i), fmt.Sprintf("tool %q requires %q, which is not among its properties", t.def.Def.Name, r))
		}
	}
}
