package openapi

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxToolName is the longest tool name every client accepts.
const maxToolName = 64

// toolName turns an operationId (or, without one, the method and path)
// into a name clients accept: lower snake case of letters, digits and '_'.
// getPetById becomes get_pet_by_id, repos/get-content repos_get_content.
func toolName(operationID, method, path string) string {
	src := operationID
	if src == "" {
		src = method + " " + path
	}
	name := snake(src)
	if name == "" {
		name = "operation"
	}
	if len(name) > maxToolName {
		name = strings.TrimRight(name[:maxToolName], "_")
	}
	return name
}

// snake writes s in lower snake case: words split at non-alphanumerics and
// at lower-to-upper changes, joined by '_'.
func snake(s string) string {
	var b strings.Builder
	prev := rune(0)
	for i, r := range s {
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			upper := unicode.IsUpper(r)
			if upper && b.Len() > 0 && (unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next)) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			r = '_'
		}
		prev = r
	}
	return strings.Trim(b.String(), "_")
}

// argName is a parameter or property name as an argument: letters, digits
// and '_' only, so that it reads as `args.NAME` in expressions and every
// client accepts it as a property name.
func argName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	n := strings.Trim(b.String(), "_")
	if n == "" || unicode.IsDigit(rune(n[0])) {
		n = "p_" + n
	}
	return n
}

// names hands out unique names: a name taken already gets _2, _3...
type names map[string]bool

func (ns names) unique(name string) string {
	n := name
	for i := 2; ns[n]; i++ {
		suffix := "_" + strconv.Itoa(i)
		n = name
		if len(n)+len(suffix) > maxToolName {
			n = n[:maxToolName-len(suffix)]
		}
		n += suffix
	}
	ns[n] = true
	return n
}

// trim shortens text for a model: whitespace runs collapsed to one space
// (paragraph breaks kept), at most max bytes, cut after a sentence or a
// word.
func trim(s string, max int) string {
	paras := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n")
	var kept []string
	for _, p := range paras {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			kept = append(kept, p)
		}
	}
	s = strings.Join(kept, "\n\n")
	if len(s) <= max {
		return s
	}
	cut := s[:max]
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndex(cut, ". "); i > max/2 {
		return cut[:i+1]
	}
	if i := strings.LastIndexAny(cut, " \n"); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
