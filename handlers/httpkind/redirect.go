package httpkind

import (
	"fmt"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/handlers"
)

// errRedirectLoop stops a chain of redirects; retrying would not help.
var errRedirectLoop = fmt.Errorf("stopped after %d redirects", maxRedirects)

// send sends req on the backend's transport, following redirects that stay
// on the same scheme, host and port (at most maxRedirects): the backend's
// credentials must go nowhere else. A redirect elsewhere is returned as the
// response, and the call reports it. Going around http.Client saves a copy
// of the headers and a deadline timer per request.
func (b *backend) send(req *http.Request) (*http.Response, error) {
	rt := handlers.Transport(req.Context(), b.transport)
	for n := 0; ; n++ {
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		next := redirectTarget(req, resp)
		if next == nil {
			return resp, nil
		}
		_, _ = io.CopyN(io.Discard, resp.Body, 4<<10) // so the connection can be reused
		resp.Body.Close()
		if n == maxRedirects {
			return nil, errRedirectLoop
		}
		if req, err = next(resp.StatusCode); err != nil {
			return nil, err
		}
	}
}

// redirectTarget returns how to make the request a same-origin redirect
// asks for, or nil when resp is not one.
func redirectTarget(req *http.Request, resp *http.Response) func(int) (*http.Request, error) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil
	}
	loc, err := req.URL.Parse(resp.Header.Get("Location"))
	if resp.Header.Get("Location") == "" || err != nil || !sameOrigin(loc, req.URL) {
		return nil
	}
	return func(status int) (*http.Request, error) {
		r := req.Clone(req.Context())
		r.URL, r.Host = loc, loc.Host
		if status == http.StatusTemporaryRedirect || status == http.StatusPermanentRedirect {
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
			return r, nil
		}
		// 301, 302 and 303: as browsers do, the next request is a GET without a body
		if r.Method != http.MethodHead {
			r.Method = http.MethodGet
		}
		r.Body, r.GetBody, r.ContentLength = nil, nil, 0
		r.Header.Del("Content-Type")
		return r, nil
	}
}
