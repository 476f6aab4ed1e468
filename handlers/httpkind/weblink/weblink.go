// Package weblink reads the Link header fields of an HTTP response
// (RFC 8288): the target of a link by its relation type.
package weblink

import (
	"net/http"
	"net/url"
	"strings"
)

// Target returns the URL of the first link of header (RFC 8288 Link
// fields, as many as the response has) whose relation types include rel,
// resolved against base; "" when there is none.
func Target(header http.Header, rel string, base *url.URL) string {
	for _, field := range header.Values("Link") {
		for _, link := range splitLinks(field) {
			target, params, ok := strings.Cut(link, ">")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") || !hasRel(params, rel) {
				continue
			}
			u, err := url.Parse(target[1:])
			if err != nil {
				continue
			}
			if base != nil {
				u = base.ResolveReference(u)
			}
			return u.String()
		}
	}
	return ""
}

// splitLinks splits a Link field at the commas between links, not at
// those inside <...> or a quoted string.
func splitLinks(field string) []string {
	var out []string
	inURI, inQuote, start := false, false, 0
	for i := 0; i < len(field); i++ {
		switch c := field[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"' && !inURI:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inURI = true
		case c == '>' && !inQuote:
			inURI = false
		case c == ',' && !inURI && !inQuote:
			out = append(out, field[start:i])
			start = i + 1
		}
	}
	return append(out, field[start:])
}

// hasRel reports whether a link's parameters (`; rel="next last"`) name
// rel among its relation types, compared without regard to case.
func hasRel(params, rel string) bool {
	for _, p := range strings.Split(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
			continue
		}
		for _, r := range strings.Fields(strings.Trim(strings.TrimSpace(value), `"`)) {
			if strings.EqualFold(r, rel) {
				return true
			}
		}
		return false // only the first rel parameter counts
	}
	return false
}
