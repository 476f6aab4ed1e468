package shellkind

import (
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/mcpgen/mcpgen/handlers"
)

// holds is what an argument's declared schema lets it hold, as far as an
// argv element is concerned.
type holds int

const (
	// freeText: any string, so program text or an option.
	freeText holds = iota
	// aWord: a string whose `pattern` allows only word characters and
	// never a leading '-': not an option, not code with syntax, but still
	// a name a shell or xargs would run as a command.
	aWord
	// noText: a number, a boolean, or one of the values written in its
	// `enum` (none starting with '-'): nothing the caller writes.
	noText
)

// wordChars are the characters a word may hold: none of them quotes,
// separates, substitutes or groups in any shell or common language.
const wordChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/@+,%"

// argSchemas returns the properties of the tool's input schema, nil when
// the tool has none.
func argSchemas(env handlers.BuildEnv) map[string]any {
	if ti, ok := env.(handlers.ToolInput); ok && ti.ToolInputSchema() != nil {
		props, _ := ti.ToolInputSchema()["properties"].(map[string]any)
		return props
	}
	return nil
}

// argHolds tells what the argument read by path (["args", name]) can hold,
// and whether it is a list (spread over several elements).
func argHolds(props map[string]any, path []string) (h holds, list bool) {
	if len(path) != 2 || path[0] != "args" {
		return freeText, false // not known: a list is refused at call time where it matters
	}
	s, _ := props[path[1]].(map[string]any)
	if s == nil {
		return freeText, false
	}
	if hasType(s, "array") {
		items, _ := s["items"].(map[string]any)
		if items == nil {
			return freeText, true
		}
		return schemaHolds(items), true
	}
	return schemaHolds(s), false
}

// schemaHolds classifies one JSON Schema (not an array).
func schemaHolds(s map[string]any) holds {
	if vals, ok := s["enum"].([]any); ok && len(vals) > 0 {
		return enumHolds(vals)
	}
	if c, ok := s["const"]; ok {
		return enumHolds([]any{c})
	}
	t, _ := s["type"].(string)
	switch t {
	case "integer", "number", "boolean":
		return noText
	case "string":
		if p, _ := s["pattern"].(string); p != "" && wordPattern(p) {
			return aWord
		}
	}
	return freeText
}

// enumHolds: an enum of numbers, booleans and strings not starting with
// '-' holds only what the author wrote.
func enumHolds(vals []any) holds {
	for _, v := range vals {
		switch v := v.(type) {
		case float64, bool, int, int64:
		case string:
			if strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\x00") {
				return freeText
			}
		default:
			return freeText
		}
	}
	return noText
}

// hasType reports whether schema s allows type t.
func hasType(s map[string]any, t string) bool {
	switch v := s["type"].(type) {
	case string:
		return v == t
	case []any:
		for _, x := range v {
			if x == t {
				return true
			}
		}
	}
	return false
}

// wordPattern reports whether every string that matches the regular
// expression p, whole, is a word: anchored at both ends (^...$), made only
// of wordChars, and not starting with '-'. Anything it cannot see through
// (an unanchored pattern, `.`, a class such as \S or \w with Unicode, an
// alternation of anchored branches) is not a word.
func wordPattern(p string) bool {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return false
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 ||
		re.Sub[0].Op != syntax.OpBeginText || re.Sub[len(re.Sub)-1].Op != syntax.OpEndText {
		return false
	}
	body := re.Sub[1 : len(re.Sub)-1]
	for _, s := range body {
		if !onlyWordChars(s) {
			return false
		}
	}
	first, _ := firstRunes(body)
	return !first['-']
}

// onlyWordChars reports whether re matches only text of wordChars.
func onlyWordChars(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if !strings.ContainsRune(wordChars, r) ||
				re.Flags&syntax.FoldCase != 0 && !strings.ContainsRune(wordChars, unicode.SimpleFold(r)) {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 128 {
				return false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if !strings.ContainsRune(wordChars, r) {
					return false
				}
			}
		}
		return true
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat,
		syntax.OpConcat, syntax.OpAlternate:
		for _, s := range re.Sub {
			if !onlyWordChars(s) {
				return false
			}
		}
		return true
	}
	return false // any character, anchors inside, word boundaries
}

// firstRunes returns the characters a match of the sequence res can start
// with, and whether it can be empty.
func firstRunes(res []*syntax.Regexp) (map[rune]bool, bool) {
	set := map[rune]bool{}
	for _, re := range res {
		f, empty := firstOf(re)
		for r := range f {
			set[r] = true
		}
		if !empty {
			return set, false
		}
	}
	return set, true
}

// firstOf is firstRunes for one node (of wordChars only: see onlyWordChars).
func firstOf(re *syntax.Regexp) (map[rune]bool, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		set := map[rune]bool{re.Rune[0]: true}
		if re.Flags&syntax.FoldCase != 0 {
			set[unicode.SimpleFold(re.Rune[0])] = true
		}
		return set, false
	case syntax.OpCharClass:
		set := map[rune]bool{}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				set[r] = true
			}
		}
		return set, false
	case syntax.OpCapture, syntax.OpPlus:
		return firstOf(re.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		f, _ := firstOf(re.Sub[0])
		return f, true
	case syntax.OpRepeat:
		f, empty := firstOf(re.Sub[0])
		return f, empty || re.Min == 0
	case syntax.OpConcat:
		return firstRunes(re.Sub)
	case syntax.OpAlternate:
		set, empty := map[rune]bool{}, false
		for _, s := range re.Sub {
			f, e := firstOf(s)
			for r := range f {
				set[r] = true
			}
			empty = empty || e
		}
		return set, empty
	}
	return nil, true
}
