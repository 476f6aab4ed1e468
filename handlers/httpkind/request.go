package httpkind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/eval"
)

// outgoing is a request built from a call, before credentials are added.
type outgoing struct {
	method string
	url    *url.URL
	header http.Header
	body   []byte
}

// param is a compiled query parameter, header or form field.
type param struct {
	name string
	val  *eval.Value
}

// build evaluates the request of a call.
func (h *handler) build(vars map[string]any) (*outgoing, error) {
	if h.pageInRequest && vars["page"] == nil {
		vars["page"] = map[string]any{"cursor": nil, "number": int64(1)}
	}
	u, err := h.url(vars)
	if err != nil {
		return nil, err
	}
	out := &outgoing{method: h.method, url: u, header: make(http.Header, len(h.be.headers)+len(h.headers)+2)}
	for k, v := range h.be.headers {
		out.header[k] = v // shared, never modified: headers are set, not appended to
	}
	if err := h.query(u, vars); err != nil {
		return nil, err
	}
	for _, p := range h.headers {
		v, err := p.val.String(vars, nil)
		if err != nil {
			return nil, fmt.Errorf("header %s: %w", p.name, err)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return nil, fmt.Errorf("header %s: the value holds a line break; refused", p.name)
		}
		if v != "" {
			out.header.Set(p.name, v)
		}
	}
	if h.body != nil {
		ctype, body, err := h.body.build(vars)
		if err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		out.body = body
		out.header.Set("Content-Type", ctype)
	}
	if h.override && out.method != http.MethodPost {
		out.header.Set("X-HTTP-Method-Override", out.method)
		out.method = http.MethodPost
	}
	return out, nil
}

// errNoBaseURL is the error of calls to a backend whose base_url was left
// empty by an unset environment variable.
var errNoBaseURL = errors.New("the API's base_url is not set (is an environment variable unset?)")

// errEmptySegment refuses an empty argument in a path segment: the request
// would reach the collection instead of the item.
var errEmptySegment = errors.New("an argument inserted into the URL path is empty")

// errDotSegment refuses "." or ".." as a path segment: escaped or not,
// servers and proxies that normalize paths resolve them, and the request
// would reach another resource than the one the path names.
var errDotSegment = errors.New(`an argument inserted into the URL path is "." or "..", which would name another resource`)

// url joins the base URL and the evaluated path. Interpolated values are
// escaped as single segments, so they can add neither segments, nor a
// query, nor a host; an empty value or a dot segment is refused.
func (h *handler) url(vars map[string]any) (*url.URL, error) {
	if h.be == nil || h.be.base == nil {
		return nil, errNoBaseURL
	}
	u := *h.be.base
	if h.path == nil {
		return &u, nil
	}
	var refused error
	p, err := h.path.String(vars, func(s string) string {
		switch s {
		case "":
			refused = errEmptySegment
		case ".", "..":
			refused = errDotSegment
		}
		return url.PathEscape(s)
	})
	if err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	if refused != nil {
		return nil, refused
	}
	full := u.EscapedPath()
	if p != "" {
		full += "/" + strings.TrimLeft(p, "/")
	}
	if u.Path, err = url.PathUnescape(full); err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	u.RawPath = full
	return &u, nil
}

// query adds the evaluated query parameters to u.
func (h *handler) query(u *url.URL, vars map[string]any) error {
	if len(h.queryParams) == 0 {
		return nil
	}
	q := u.Query()
	for _, p := range h.queryParams {
		x, err := p.val.Eval(vars)
		if err != nil {
			return fmt.Errorf("query %s: %w", p.name, err)
		}
		addValue(q, p.name, x, h.queryStyle)
	}
	u.RawQuery = q.Encode()
	return nil
}

// addValue adds x under name: nothing for null, one entry per element of a
// list (in style), the text of anything else.
func addValue(q url.Values, name string, x any, style string) {
	list, ok := x.([]any)
	switch {
	case x == nil:
	case !ok:
		q.Add(name, eval.Format(x))
	case style == "comma":
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = eval.Format(e)
		}
		q.Add(name, strings.Join(parts, ","))
	default:
		for i, e := range list {
			switch style {
			case "indexed":
				q.Add(name+"["+strconv.Itoa(i)+"]", eval.Format(e))
			case "brackets":
				q.Add(name+"[]", eval.Format(e))
			default:
				q.Add(name, eval.Format(e))
			}
		}
	}
}

// request makes the net/http request of one attempt. Attempts run one
// after the other and set the same headers, so they share o.header.
func (o *outgoing) request(ctx context.Context) *http.Request {
	u := *o.url
	req := &http.Request{Method: o.method, URL: &u, Header: o.header, Host: u.Host,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
	if o.body != nil {
		req.ContentLength = int64(len(o.body))
		req.Body = io.NopCloser(bytes.NewReader(o.body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(o.body)), nil }
	}
	return req.WithContext(ctx)
}

// idempotentMethods may be retried: repeating them has no further effect.
var idempotentMethods = []string{"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"}

func isIdempotent(method string) bool { return slices.Contains(idempotentMethods, method) }
