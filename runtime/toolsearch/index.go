// Package toolsearch ranks a server's tools for what a model wants to do:
// BM25 over each tool's fields, weighted (a word in the name counts more
// than one in the description), with words reduced to a common stem. It
// needs no model and no service: the index is built from the tools the
// server serves.
package toolsearch

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Doc is what the index reads of a tool.
type Doc struct {
	Name, Title, Description string
	Args, Tags               []string
}

// fields are the fields of a tool the index reads, with the weight of a
// word found in each (a word in the name counts more than one in the
// description) and how much a field's length tempers its words (BM25F).
var fields = []struct {
	weight, b float64
	text      func(Doc) string
}{
	{4.0, 0.9, func(d Doc) string { return d.Name }},
	{2.0, 0.75, func(d Doc) string { return d.Title }},
	{0.6, 0.75, func(d Doc) string { return d.Description }},
	{0.5, 0.5, func(d Doc) string { return strings.Join(d.Args, " ") }},
	{1.5, 0.5, func(d Doc) string { return strings.Join(d.Tags, " ") }},
}

// k1 is BM25's saturation: how soon more of one word stops adding.
const k1 = 1.2

// Index ranks documents; it does not change once built.
type Index struct {
	tf     [][]map[string]float64 // doc, field -> term -> count
	lens   [][]float64            // doc, field -> terms
	avgLen []float64              // field -> mean terms
	df     map[string]int
}

// Hit is a ranked document: its position in the list given to New.
type Hit struct {
	Doc   int
	Score float64
}

// New indexes docs.
func New(docs []Doc) *Index {
	ix := &Index{df: map[string]int{}, avgLen: make([]float64, len(fields))}
	for _, d := range docs {
		tfs, lens := make([]map[string]float64, len(fields)), make([]float64, len(fields))
		seen := map[string]bool{}
		for f, fd := range fields {
			tfs[f] = map[string]float64{}
			for _, t := range Terms(fd.text(d)) {
				tfs[f][t]++
				lens[f]++
				if !seen[t] {
					seen[t] = true
					ix.df[t]++
				}
			}
			ix.avgLen[f] += lens[f]
		}
		ix.tf, ix.lens = append(ix.tf, tfs), append(ix.lens, lens)
	}
	for f := range fields {
		ix.avgLen[f] = max(ix.avgLen[f]/float64(max(len(docs), 1)), 1)
	}
	return ix
}

// Search returns up to limit documents for query, best first.
func (ix *Index) Search(query string, limit int) []Hit {
	terms := Terms(query)
	slices.Sort(terms)
	terms = slices.Compact(terms)
	var hits []Hit
	n := float64(len(ix.tf))
	for i := range ix.tf {
		score := 0.0
		for _, t := range terms {
			w := 0.0 // the term's weighted, length-tempered frequency
			for f, fd := range fields {
				if c := ix.tf[i][f][t]; c > 0 {
					w += fd.weight * c / (1 - fd.b + fd.b*ix.lens[i][f]/ix.avgLen[f])
				}
			}
			if w == 0 {
				continue
			}
			df := float64(ix.df[t])
			score += math.Log(1+(n-df+0.5)/(df+0.5)) * w / (k1 + w)
		}
		if score > 0 {
			hits = append(hits, Hit{i, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(limit, len(hits))]
}

// stop are words too common in requests and descriptions to rank by.
var stop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "in": true,
	"on": true, "and": true, "or": true, "is": true, "it": true, "by": true, "with": true, "from": true, "my": true,
	"i": true, "me": true, "this": true, "that": true, "be": true, "as": true, "at": true, "all": true, "want": true,
	"please": true, "which": true, "what": true, "how": true, "can": true, "you": true, "do": true, "some": true}

// synonyms map words of requests to the words tools use.
var synonyms = map[string]string{"pr": "pull", "prs": "pull", "repo": "repository", "repos": "repository",
	"remove": "delete", "erase": "delete", "fetch": "get", "show": "get", "retrieve": "get", "view": "get",
	"make": "create", "new": "create", "add": "create", "modify": "update", "edit": "update", "change": "update",
	"find": "search", "logged": "authenticated", "publish": "create", "org": "organization", "orgs": "organization", "enumerate": "list", "star": "starred", "stars": "starred"}

// Terms splits text into the stems the index ranks by: words split at
// non-letters and at camelCase, lowercased, stop words dropped.
func Terms(text string) []string {
	var out []string
	for _, w := range words(text) {
		w = strings.ToLower(w)
		if s, ok := synonyms[w]; ok {
			w = s
		}
		if stop[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// words splits at anything but letters and digits, and before an upper
// case letter that follows a lower case one.
func words(text string) []string {
	var out []string
	start := -1
	var prev rune
	for i, r := range text {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case !alnum:
			if start >= 0 {
				out = append(out, text[start:i])
			}
			start = -1
		case start < 0:
			start = i
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			out = append(out, text[start:i])
			start = i
		}
		prev = r
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

// stem strips the common English endings, enough that "repositories",
// "repository", "listing" and "lists" meet their kin.
func stem(w string) string {
	for _, e := range []struct{ suffix, repl string }{
		{"ies", "y"}, {"sses", "ss"}, {"ing", ""}, {"ed", ""}, {"es", ""}, {"s", ""},
	} {
		if strings.HasSuffix(w, e.suffix) && len(w)-len(e.suffix) >= 3 && !strings.HasSuffix(w, "ss") {
			return w[:len(w)-len(e.suffix)] + e.repl
		}
	}
	return w
}
