package httpkind

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// linkTarget returns the URL of the first link of header (RFC 8288 Link
// fields, as many as the response has) whose relation types include rel,
// resolved against base; "" when there is none.
func linkTarget(header http.Header, rel string, base *url.URL) string {
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

// checkLinkPager checks link pagination: the link is the next page's URL,
// so nothing else carries a cursor; in cursor mode the model passes the
// link back in a `cursor` argument.
func checkLinkPager(env handlers.BuildEnv, p *Pagination) {
	if p.CursorParam != "" || p.CursorField != "" || p.CursorHeader != "" {
		env.Diag("pagination.link", "with link, the next page is the link's URL: cursor_param, cursor_field and "+
			"cursor_header do not apply")
	}
	if p.Mode != "cursor" {
		return
	}
	ti, ok := env.(handlers.ToolInput)
	if !ok || ti.ToolInputSchema() == nil {
		return
	}
	props, _ := ti.ToolInputSchema()["properties"].(map[string]any)
	if _, found := props["cursor"]; !found {
		env.Diag("pagination.link", "in cursor mode the model passes nextCursor (the link) back as the `cursor` "+
			"argument; declare it: args: [{name: cursor, description: nextCursor of the previous page}]")
	}
}

// linkedRequest is out sent to the link the model passed back as its
// `cursor` argument (cursor mode with link), when it did.
func (h *handler) linkedRequest(args map[string]any, out *outgoing) (*outgoing, error) {
	s, _ := args["cursor"].(string)
	if s == "" {
		return out, nil
	}
	link, err := url.Parse(s)
	if err != nil || !link.IsAbs() || !sameOrigin(link, h.be.base) || link.User != nil {
		return nil, fmt.Errorf("cursor: not a link to the next page of this API; pass the nextCursor of " +
			"the previous result as it was, or leave it out for the first page")
	}
	n := *out
	n.url = link
	return &n, nil
}
