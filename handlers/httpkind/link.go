package httpkind

import (
	"fmt"
	"net/url"

	"github.com/mcpgen/mcpgen/handlers"
)

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
