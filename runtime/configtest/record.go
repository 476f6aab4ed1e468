package configtest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"gopkg.in/yaml.v3"
)

// send sends req to the real API and records the exchange, secrets
// scrubbed.
func (r *replayer) send(req *http.Request, body []byte, next http.RoundTripper) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := next.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	rbody, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return nil, err
	}
	e := &Exchange{
		// the path and query only: replay matches them whatever host the
		// tests' env gives the API
		Request:  Request{Method: req.Method, URL: r.scrub(req.URL.RequestURI()), Body: r.scrub(string(body)), Headers: r.requestHeaders(req.Header)},
		Response: Response{Status: resp.StatusCode, Headers: r.responseHeaders(resp.Header), Body: r.scrub(string(rbody))},
	}
	r.mu.Lock()
	r.recorded = append(r.recorded, e)
	r.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(rbody))
	return resp, nil
}

// scrub replaces every secret value in s.
func (r *replayer) scrub(s string) string {
	for _, v := range r.secrets {
		s = strings.ReplaceAll(s, v, scrubbed)
	}
	return s
}

// sensitive reports whether a header carries credentials.
func sensitive(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "cookie", "token", "key", "secret", "session", "signature"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// requestHeaders keeps what a replayed request must carry: its content
// type, and that credentials were sent (not their value).
func (r *replayer) requestHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for k := range h {
		switch {
		case sensitive(k):
			out[k] = scrubbed
		case k == "Content-Type":
			out[k] = h.Get(k)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// responseHeaders keeps the response's headers but those that change with
// every response or hold credentials.
func (r *replayer) responseHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for k := range h {
		switch k {
		case "Date", "Set-Cookie", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding", "Age", "Expires":
			continue
		}
		if sensitive(k) {
			continue
		}
		out[k] = r.scrub(h.Get(k))
	}
	return out
}

// writeRecorded stores what the cases recorded in the recordings file,
// keeping the entries of cases that did not run.
func (s *Suite) writeRecorded(results []*Result) error {
	all := map[string][]*Exchange{}
	for k, v := range s.recorded {
		all[k] = v
	}
	changed := false
	for _, r := range results {
		if r.Skipped {
			continue
		}
		if len(r.recorded) == 0 {
			_, had := all[r.Name]
			changed = changed || had
			delete(all, r.Name)
			continue
		}
		all[r.Name], changed = r.recorded, true
	}
	if !changed {
		return nil
	}
	if len(all) == 0 {
		return os.Remove(s.RecordPath())
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# HTTP exchanges recorded by `mcpgen test --record` for %s, secrets scrubbed.\n", s.Path)
	fmt.Fprintf(&b, "# `mcpgen test` replays them; record again after changing the config.\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(recordFile{Tests: all}); err != nil {
		return err
	}
	s.recorded = all
	return os.WriteFile(s.RecordPath(), b.Bytes(), 0o644)
}
