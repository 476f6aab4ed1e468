package sqlkind

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// pageVerbs are the statements page can wrap.
var pageVerbs = []string{"SELECT", "WITH", "VALUES", "TABLE"}

// topWord is a word of a statement's code outside any parentheses.
type topWord struct {
	upper string
	off   int // in the statement's text
}

// topWords lists the words of mask (statement.mask) at depth 0, and the
// offset of the first ; there (-1 for none). A word after a colon (a
// :name placeholder, a ::type cast) is not one.
func topWords(mask string) ([]topWord, int) {
	var words []topWord
	depth := 0
	for i := 0; i < len(mask); {
		c := mask[i]
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ';' && depth == 0:
			return words, i
		case isIdent(c) || c == '$':
			j := i
			for j < len(mask) && (isIdent(mask[j]) || mask[j] == '$') {
				j++
			}
			if depth == 0 && (i == 0 || mask[i-1] != ':') && !isDigit(c) {
				words = append(words, topWord{upper: strings.ToUpper(mask[i:j]), off: i})
			}
			i = j
			continue
		}
		i++
	}
	return words, -1
}

// pageable checks that the query st can be wrapped by p and returns its
// text to wrap: without a closing ;.
func pageable(env handlers.BuildEnv, st *step, pg *Page, p *pager, src string) (string, bool) {
	words, semi := topWords(st.st.mask)
	ok := true
	bad := func(off int, msg string) {
		env.DiagAt(st.field, off, msg)
		ok = false
	}
	if semi >= 0 {
		if strings.TrimSpace(st.st.mask[semi+1:]) != "" {
			bad(semi, "a paged query is one statement; this has more after the ;")
		}
		src = src[:semi]
	}
	if len(words) > 0 && !strings.HasPrefix(strings.TrimSpace(st.st.mask), "(") && !slices.Contains(pageVerbs, words[0].upper) {
		bad(words[0].off, fmt.Sprintf("%s cannot be paged; page wraps a query that starts with SELECT, WITH, VALUES or TABLE", words[0].upper))
	}
	ordered := false
	for i, w := range words {
		switch w.upper {
		case "LIMIT", "OFFSET", "FETCH":
			bad(w.off, fmt.Sprintf("the query has its own %s; page limits each page itself: remove it", w.upper))
		case "FOR", "LOCK":
			if i+1 < len(words) && strings.Contains(" UPDATE SHARE NO KEY IN ", " "+words[i+1].upper+" ") {
				bad(w.off, "a paged query cannot lock rows ("+w.upper+" "+words[i+1].upper+"): each page is read in its own transaction")
			}
		case "ORDER":
			if i+1 < len(words) && words[i+1].upper == "BY" {
				ordered = true
				if p.keys != nil {
					bad(w.off, fmt.Sprintf("page orders the rows by the keyset itself (ORDER BY %s): remove this ORDER BY",
						strings.Join(pg.Keyset, ", ")))
				}
			}
		}
	}
	if pg.Offset && !ordered && ok {
		env.Diag(st.field, "offset pages need the query's ORDER BY, over columns that give every row its place "+
			"(end with the primary key); without it pages overlap and miss rows")
		ok = false
	}
	checkKeysInQuery(env, pg, p, st.st.mask, src)
	return src, ok
}

// checkKeysInQuery reports keyset columns that cannot be columns of the
// query's result: the query names every column of its result unless it
// has a * somewhere, so a name it never mentions is not one.
func checkKeysInQuery(env handlers.BuildEnv, pg *Page, p *pager, mask, src string) {
	if strings.Contains(mask, "*") {
		return
	}
	for i, k := range p.keys {
		if !regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_$])` + k + `($|[^A-Za-z0-9_$])`).MatchString(src) {
			env.Diag(fmt.Sprintf("page.keyset[%d]", keyIndex(pg, i)), fmt.Sprintf("%s is not a column of the query's "+
				"result; the keyset names columns the query selects, e.g. its primary key", k))
		}
	}
}

// keyIndex is the index in page.keyset of the i-th valid key.
func keyIndex(pg *Page, i int) int {
	n := -1
	for j, k := range pg.Keyset {
		if keyPattern.MatchString(strings.TrimSpace(k)) {
			if n++; n == i {
				return j
			}
		}
	}
	return i
}

// wrap writes the statements of the first page and of the next ones (""
// for offset pages, which have one statement).
func (p *pager) wrap(src string, d *dialect) (first, next string) {
	limit := ":" + pageParam + "limit"
	if p.keys == nil {
		return src + "\nLIMIT " + limit + " OFFSET :" + pageParam + "offset", ""
	}
	outer := "SELECT *"
	if p.hidden {
		for i, k := range p.keys {
			// + keeps the value and drops the column's declared type
			outer += fmt.Sprintf(", +%s AS %sk%d", d.quoteIdent(k), pageParam, i)
		}
	}
	outer += " FROM (\n" + src + "\n) AS mcpgen_page"
	order := make([]string, len(p.keys))
	for i, k := range p.keys {
		order[i] = d.quoteIdent(k)
		if p.desc[i] {
			order[i] += " DESC"
		}
	}
	tail := "\nORDER BY " + strings.Join(order, ", ") + "\nLIMIT " + limit
	return outer + tail, outer + "\nWHERE " + p.after(d) + tail
}

// after is the condition of the rows after the key values bound as
// :mcpgen_page_k0, …: a row comparison when every key goes the same way,
// which databases read as one range of an index.
func (p *pager) after(d *dialect) string {
	cols, vals, uniform := make([]string, len(p.keys)), make([]string, len(p.keys)), true
	for i, k := range p.keys {
		cols[i], vals[i] = d.quoteIdent(k), fmt.Sprintf(":%sk%d", pageParam, i)
		uniform = uniform && p.desc[i] == p.desc[0]
	}
	op := map[bool]string{false: " > ", true: " < "}
	switch {
	case len(cols) == 1:
		return cols[0] + op[p.desc[0]] + vals[0]
	case uniform:
		return "(" + strings.Join(cols, ", ") + ")" + op[p.desc[0]] + "(" + strings.Join(vals, ", ") + ")"
	}
	var or []string
	for i := range cols {
		var and []string
		for j := range i {
			and = append(and, cols[j]+" = "+vals[j])
		}
		or = append(or, strings.Join(append(and, cols[i]+op[p.desc[i]]+vals[i]), " AND "))
	}
	return "(" + strings.Join(or, " OR ") + ")"
}

// quoteIdent quotes a name that keyPattern accepted.
func (d *dialect) quoteIdent(name string) string {
	if d.syntax.doubleString { // mysql
		return "`" + name + "`"
	}
	return `"` + name + `"`
}
