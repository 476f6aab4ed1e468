package httpkind

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
)

// DefaultMaxPages bounds the pages one call follows.
const DefaultMaxPages = 10

// pager is a compiled Pagination.
type pager struct {
	follow   bool
	next     *eval.Value
	items    *eval.Value
	param    string
	maxPages int
}

func compilePager(env handlers.BuildEnv, p *Pagination) *pager {
	pg := &pager{follow: p.Mode == "follow", param: p.CursorParam, maxPages: p.MaxPages}
	switch p.Mode {
	case "follow":
		if p.Items.IsZero() {
			env.Diag("pagination.items", "follow mode needs items, e.g. ${{ response.body.data }}")
		}
	case "cursor":
		for field, set := range map[string]bool{"items": !p.Items.IsZero(), "cursor_param": p.CursorParam != "", "max_pages": p.MaxPages != 0} {
			if set {
				env.Diag("pagination."+field, field+" is for follow mode; in cursor mode the tool maps its cursor argument itself")
			}
		}
	}
	if pg.maxPages <= 0 {
		pg.maxPages = DefaultMaxPages
	}
	pg.next = env.Compile("pagination.next", &p.Next, responseVars)
	if !p.Items.IsZero() {
		pg.items = env.Compile("pagination.items", &p.Items, responseVars)
	}
	return pg
}

// nextOf evaluates the next cursor or link; "" means there is none.
func (pg *pager) nextOf(vars map[string]any) (string, error) {
	x, err := pg.next.Eval(vars)
	if err != nil {
		return "", fmt.Errorf("pagination.next: %w", err)
	}
	return eval.Format(x), nil
}

// cursor adds nextCursor to a result, in cursor mode.
func (pg *pager) cursor(result any, vars map[string]any) (any, error) {
	next, err := pg.nextOf(vars)
	if err != nil || next == "" {
		return result, err
	}
	m := maps.Clone(wrap(result).(map[string]any))
	m["nextCursor"] = next
	return m, nil
}

// follow fetches pages until there is no next one or max_pages is
// reached, and returns their items together.
func (h *handler) follow(ctx context.Context, c *handlers.Call, vars map[string]any, out *outgoing) (*handlers.Result, error) {
	pg := h.page
	items := []any{}
	for page := 1; ; page++ {
		resp, err := h.do(ctx, c.Notify, out)
		if err != nil {
			return nil, err
		}
		p := parse(resp)
		vars["response"] = p.responseVar(true)
		if err := h.check(resp, vars); err != nil {
			return nil, fmt.Errorf("page %d: %w", page, err)
		}
		if resp.truncated {
			return nil, fmt.Errorf("page %d is larger than %s and was truncated; raise max_response", page, spec.Size(h.lim.maxResponse))
		}
		got, err := pg.items.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("pagination.items: %w", err)
		}
		list, ok := got.([]any)
		if !ok && got != nil {
			return nil, fmt.Errorf("pagination.items: page %d gave %s, not a list", page, describe(got))
		}
		items = append(items, list...)
		h.logPage(ctx, c.Notify, out, page, len(list), len(items))
		c.Notify.Progress(ctx, float64(page), float64(pg.maxPages), fmt.Sprintf("fetched page %d", page))
		next, err := pg.nextOf(vars)
		if err != nil {
			return nil, err
		}
		if next == "" {
			return h.render(vars, map[string]any{"items": items, "pages": int64(page)}, nil)
		}
		if page == pg.maxPages {
			return h.render(vars, map[string]any{"items": items, "pages": int64(page), "more": true}, nil)
		}
		if out, err = h.nextRequest(out, next); err != nil {
			return nil, err
		}
	}
}

// errForeignLink refuses a next link to another host.
var errForeignLink = errors.New("pagination.next: the next page is on another host; not followed")

// nextRequest is out for the next page: the cursor in its query
// parameter, or the link as the URL.
func (h *handler) nextRequest(out *outgoing, next string) (*outgoing, error) {
	n := *out
	u := *out.url
	if h.page.param != "" {
		q := u.Query()
		q.Set(h.page.param, next)
		u.RawQuery = q.Encode()
		n.url = &u
		return &n, nil
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
