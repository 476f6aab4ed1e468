package httpkind

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/httpkind/weblink"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
)

// DefaultMaxPages bounds the pages one call follows.
const DefaultMaxPages = 10

// pager is a compiled Pagination.
type pager struct {
	follow   bool
	next     *eval.Value
	items    *eval.Value
	param    string   // the query parameter of the cursor
	field    []string // the path of the cursor in the JSON body
	header   string   // the header of the cursor
	link     string   // the relation of the Link header that points at the next page
	maxPages int
}

// compilePager compiles a tool's pagination; checkBody checks where the
// cursor goes against the tool's body (a backend's is checked for each of
// its tools).
func compilePager(env handlers.BuildEnv, p *Pagination, body *Body, checkBody bool) *pager {
	pg := &pager{follow: p.Mode == "follow", param: p.CursorParam, header: p.CursorHeader, maxPages: p.MaxPages,
		link: p.Link}
	if p.CursorField != "" {
		pg.field = strings.Split(p.CursorField, ".")
	}
	switch p.Mode {
	case "follow":
		if p.Items.IsZero() {
			env.Diag("pagination.items", "follow mode needs items, e.g. ${{ response.body.data }}")
		}
		if checkBody {
			checkCursor(env, p, body, "")
		}
	case "cursor":
		for field, set := range map[string]bool{"items": !p.Items.IsZero(), "cursor_param": p.CursorParam != "",
			"cursor_field": p.CursorField != "", "cursor_header": p.CursorHeader != "", "max_pages": p.MaxPages != 0} {
			if set {
				env.Diag("pagination."+field, field+" is for follow mode; in cursor mode the tool maps its cursor argument itself")
			}
		}
	}
	if pg.maxPages <= 0 {
		pg.maxPages = DefaultMaxPages
	}
	if p.Link != "" {
		checkLinkPager(env, p)
		if !p.Items.IsZero() {
			pg.items = env.Compile("pagination.items", &p.Items, pagingVars)
		}
		return pg
	}
	vars := responseVars // `page` is set only while following pages
	if pg.follow {
		vars = pagingVars
	}
	pg.next = env.Compile("pagination.next", &p.Next, vars)
	if pg.follow && pg.next != nil && pg.next.IsConst() && !p.Next.IsZero() {
		env.Diag("pagination.next", "next is the same for every page, so pagination cannot advance; "+
			"read it from the response, e.g. ${{ response.body.next_cursor }}")
	}
	if !p.Items.IsZero() {
		pg.items = env.Compile("pagination.items", &p.Items, vars)
	}
	return pg
}

// checkCursor refuses, in follow mode, a cursor placed where the request
// cannot carry it to the API: a body field without a JSON body, or a query
// parameter that the JSON body also sets (the body's value would be sent
// unchanged with every page).
// whose is "" for a tool's own pagination, or "the backend's ".
func checkCursor(env handlers.BuildEnv, p *Pagination, body *Body, whose string) {
	var obj *yaml.Node
	if body != nil && !body.JSON.IsZero() {
		obj = body.JSON.Node
	}
	switch {
	case p.CursorField != "" && (obj == nil || obj.Kind == yaml.SequenceNode):
		env.Diag("pagination.cursor_field", whose+"cursor_field puts the cursor in the JSON body, but the request sends no JSON object; "+
			"add body.json or use cursor_param")
	case p.CursorField != "" && slices.Contains(strings.Split(p.CursorField, "."), ""):
		env.Diag("pagination.cursor_field", fmt.Sprintf("invalid field path %q: names joined by dots, e.g. page.after", p.CursorField))
	case p.CursorParam != "" && obj != nil && obj.Kind == yaml.MappingNode && hasKey(obj, p.CursorParam):
		env.Diag("pagination.cursor_param", fmt.Sprintf(whose+"cursor_param would put the cursor in the query as ?%s=, but the JSON body sets %q itself "+
			"and would send the same value with every page; use cursor_field: %s", p.CursorParam, p.CursorParam, p.CursorParam))
	}
}

func hasKey(m *yaml.Node, key string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return true
		}
	}
	return false
}

// nextOf evaluates the next cursor or link: its value, and its text (""
// when there is none).
func (pg *pager) nextOf(vars map[string]any, resp *response) (any, string, error) {
	if pg.link != "" {
		next := weblink.Target(resp.header, pg.link, resp.url)
		return next, next, nil
	}
	x, err := pg.next.Eval(vars)
	if err != nil {
		return nil, "", fmt.Errorf("pagination.next: %w", err)
	}
	return x, eval.Format(x), nil
}

// cursor adds nextCursor to a result, in cursor mode.
func (pg *pager) cursor(result any, vars map[string]any, resp *response) (any, error) {
	_, next, err := pg.nextOf(vars, resp)
	if err != nil || next == "" {
		return result, err
	}
	m := maps.Clone(handlers.Object(result))
	m["nextCursor"] = next
	return m, nil
}

// follow fetches pages until there is no next one or max_pages is
// reached, and returns their items together. A page equal to the previous
// one, or a next cursor equal to the one just sent, ends the list with a
// note: the API did not advance, and its pages would repeat.
func (h *handler) follow(ctx context.Context, c *handlers.Call, vars map[string]any, out *outgoing) (*handlers.Result, error) {
	pg := h.page
	items := []any{}
	var prevBody []byte
	prevNext := ""
	if vars["page"] == nil {
		vars["page"] = map[string]any{"cursor": nil, "number": int64(1)}
	}
	for page := 1; ; page++ {
		resp, err := h.do(ctx, c.Notify, out)
		if err != nil {
			return nil, err
		}
		p := parse(resp)
		vars["response"] = p.responseVar(true)
		if err := h.check(resp, vars); err != nil {
			if page == 1 {
				return nil, err
			}
			return nil, fmt.Errorf("page %d: %w", page, err)
		}
		if resp.truncated {
			return nil, fmt.Errorf("page %d is larger than %s and was truncated; raise max_response", page, spec.Size(h.lim.maxResponse))
		}
		if page > 1 && bytes.Equal(resp.body, prevBody) {
			return h.stopped(vars, items, page-1, fmt.Sprintf("page %d was the same as page %d, so it was not added: "+
				"the API does not read the cursor where it is sent", page, page-1))
		}
		prevBody = resp.body
		got, err := pg.items.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("pagination.items: %w", err)
		}
		list, ok := got.([]any)
		if !ok && page == 1 && h.pageInherited {
			return h.respond(vars, resp) // not a list endpoint: the backend's pagination is not for it
		}
		if !ok && got != nil {
			return nil, fmt.Errorf("pagination.items: page %d gave %s, not a list", page, describe(got))
		}
		items = append(items, list...)
		h.logPage(ctx, c.Notify, out, page, len(list), len(items))
		c.Notify.Progress(ctx, float64(page), float64(pg.maxPages), fmt.Sprintf("fetched page %d", page))
		x, next, err := pg.nextOf(vars, resp)
		switch {
		case err != nil:
			return nil, err
		case next == "":
			return h.render(vars, map[string]any{"items": items, "pages": int64(page)}, nil)
		case next == prevNext:
			return h.stopped(vars, items, page, fmt.Sprintf("page %d gave the same next cursor as page %d, so there is no new page to fetch", page, page-1))
		case page == pg.maxPages:
			return h.render(vars, map[string]any{"items": items, "pages": int64(page), "more": true,
				"note": fmt.Sprintf("pagination stopped at max_pages (%d): the API has more items than these; "+
					"narrow the call to see the rest", page)}, nil)
		}
		prevNext = next
		if out, err = h.nextRequest(vars, out, x, next, page+1); err != nil {
			return nil, err
		}
	}
}

// stopped is the result of a follow that ended because the API did not
// advance, with a note saying so.
func (h *handler) stopped(vars map[string]any, items []any, pages int, note string) (*handlers.Result, error) {
	return h.render(vars, map[string]any{"items": items, "pages": int64(pages), "note": "pagination stopped: " + note}, nil)
}

// errForeignLink refuses a next link to another host.
var errForeignLink = errors.New("pagination.next: the next page is on another host; not followed")

// nextRequest is out for the next page (number page): built again with
// `page` when the request reads it, and the cursor (x, as text next) in its
// query parameter, body field or header, or the link as the URL.
func (h *handler) nextRequest(vars map[string]any, out *outgoing, x any, next string, page int) (*outgoing, error) {
	vars["page"] = map[string]any{"cursor": x, "number": int64(page)}
	if h.pageInRequest {
		rebuilt, err := h.build(vars)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", page, err)
		}
		if pg := h.page; pg.param == "" && pg.header == "" && pg.field == nil {
			return rebuilt, nil // the request carries the cursor itself
		}
		out = rebuilt
	}
	n := *out
	switch pg := h.page; {
	case pg.param != "":
		u := *out.url
		q := u.Query()
		q.Set(pg.param, next)
		u.RawQuery = q.Encode()
		n.url = &u
		return &n, nil
	case pg.header != "":
		n.header = out.header.Clone()
		n.header.Set(pg.header, next)
		return &n, nil
	case pg.field != nil:
		body, err := setField(out.body, pg.field, x)
		n.body = body
		return &n, err
	}
	link, err := h.be.base.Parse(next)
	if err != nil {
		return nil, fmt.Errorf("pagination.next: invalid link: %w", err)
	}
	if !sameOrigin(link, h.be.base) || link.User != nil {
		return nil, errForeignLink
	}
	n.url = link
	return &n, nil
}

// setField returns the JSON object body with the field at path set to x,
// creating the objects on the way.
func setField(body []byte, path []string, x any) ([]byte, error) {
	var root any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber() // the other fields are sent as they were
	if err := d.Decode(&root); err != nil {
		return nil, fmt.Errorf("pagination.cursor_field: the request body is not JSON: %w", err)
	}
	m, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("pagination.cursor_field: the request body is %s, not an object", describe(root))
	}
	for _, name := range path[:len(path)-1] {
		inner, ok := m[name].(map[string]any)
		if !ok {
			if m[name] != nil {
				return nil, fmt.Errorf("pagination.cursor_field: %s in the request body is %s, not an object", name, describe(m[name]))
			}
			inner = map[string]any{}
			m[name] = inner
		}
		m = inner
	}
	m[path[len(path)-1]] = x
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(root)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// describe names the JSON type of x, for messages.
func describe(x any) string {
	switch x.(type) {
	case map[string]any:
		return "an object"
	case string:
		return "text"
	case bool:
		return "a boolean"
	case int64, float64, int:
		return "a number"
	}
	return "a value"
}

// checkPageInRequest notes whether the request reads `page`, which only a
// tool that follows pages sets.
func (h *handler) checkPageInRequest(env handlers.BuildEnv) {
	field := h.pageField()
	if field == "" {
		return
	}
	if h.page == nil || !h.page.follow {
		env.Diag(field, "page is set only while pagination follows pages (pagination.mode: follow)")
		return
	}
	h.pageInRequest = true
}

// pageField names the first part of the request that reads `page`, or "".
func (h *handler) pageField() string {
	if h.path.Uses("page") {
		return "path"
	}
	for _, ps := range []struct {
		field string
		list  []param
	}{{"query", h.queryParams}, {"headers", h.headers}} {
		for _, p := range ps.list {
			if p.val.Uses("page") {
				return ps.field + "." + p.name
			}
		}
	}
	if bb := h.body; bb != nil {
		uses := bb.value.Uses("page")
		for _, p := range bb.form {
			uses = uses || p.val.Uses("page")
		}
		for _, p := range bb.parts {
			uses = uses || p.val.Uses("page") || p.filename.Uses("page")
		}
		if uses {
			return "body"
		}
	}
	return ""
}
