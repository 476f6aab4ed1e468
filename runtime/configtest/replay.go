package configtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// scrubbed stands for a secret left out of a recording.
const scrubbed = "[scrubbed]"

// maxBody bounds a recorded or replayed body.
const maxBody = 16 << 20

// replayer answers a case's HTTP requests from its exchanges or, when
// recording, sends them for real and keeps what happened.
type replayer struct {
	exchanges []*Exchange
	record    bool     // send requests for real and record them
	secrets   []string // values to scrub from recordings
	mu        sync.Mutex
	used      []bool
	misses    []string
	recorded  []*Exchange
}

// transport is the replayer of case c: its hand-written exchanges, else
// (recording) the real API, else its recorded exchanges.
func (s *Suite) transport(c *Case, opts Options, secrets []string) *replayer {
	r := &replayer{exchanges: c.HTTP, secrets: secrets}
	switch {
	case len(c.HTTP) > 0:
	case opts.Record:
		r.record = true
	default:
		r.exchanges = s.recorded[c.Name]
	}
	r.used = make([]bool, len(r.exchanges))
	return r
}

// roundTripperFunc makes a function a round tripper.
type roundTripperFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// wrap is the Doubles' HTTP: next is the backend's own transport, which
// recording sends on.
func (r *replayer) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(req *http.Request) (*http.Response, error) { return r.roundTrip(req, next) })
}

// roundTrip answers req.
func (r *replayer) roundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	if r.record {
		return r.send(req, body, next)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.find(req, body); e != nil {
		return e.Response.http(req), nil
	}
	msg := r.miss(req, body)
	if !slices.Contains(r.misses, msg) { // the backend may retry it
		r.misses = append(r.misses, msg)
	}
	return nil, fmt.Errorf("mcpgen test: %s", msg)
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(io.LimitReader(req.Body, maxBody))
}

// find returns the first unused exchange matching req, else the last used
// one that matches (a request repeated more often than recorded).
func (r *replayer) find(req *http.Request, body []byte) *Exchange {
	var last *Exchange
	for i, e := range r.exchanges {
		if e == nil || e.Request.differs(req, body) != "" {
			continue
		}
		if !r.used[i] {
			r.used[i] = true
			return e
		}
		last = e
	}
	return last
}

// miss says which request was not recorded and which recorded one is
// nearest to it.
func (r *replayer) miss(req *http.Request, body []byte) string {
	msg := fmt.Sprintf("unrecorded request %s %s", req.Method, req.URL.Redacted())
	if len(body) > 0 {
		msg += " with body " + shorten(string(body))
	}
	if len(r.exchanges) == 0 {
		return msg + "; this test has no exchanges: run `mcpgen test --record` against the real API, or write them under http:"
	}
	best, bestScore, why := (*Exchange)(nil), -1, ""
	for _, e := range r.exchanges {
		if e == nil {
			continue
		}
		d := e.Request.differs(req, body)
		if score := matchScore[d]; score > bestScore {
			best, bestScore, why = e, score, d
		}
	}
	return fmt.Sprintf("%s; nearest recorded: %s %s (%s differs)", msg, cmpOr(best.Request.Method, "GET"), best.Request.URL, why)
}

// shorten bounds a body quoted in a message.
func shorten(s string) string {
	if len(s) > maxShown {
		return s[:maxShown] + "…"
	}
	return s
}

// matchScore ranks how near a request came by the first thing that
// differs: the later it differs, the nearer.
var matchScore = map[string]int{"the method": 0, "the host": 1, "the path": 2, "the query": 3, "a header": 4, "the body": 5}

// differs names the first thing in which req does not match q, or "".
func (q *Request) differs(req *http.Request, body []byte) string {
	u, err := url.Parse(q.URL)
	switch {
	case !strings.EqualFold(cmpOr(q.Method, "GET"), req.Method):
		return "the method"
	case err != nil || u.Host != "" && (u.Scheme != req.URL.Scheme || !strings.EqualFold(u.Host, req.URL.Host)):
		return "the host"
	case u.EscapedPath() != req.URL.EscapedPath() && u.Path != req.URL.Path:
		return "the path"
	case !reflect.DeepEqual(u.Query(), req.URL.Query()):
		return "the query"
	}
	for k, v := range q.Headers {
		got := req.Header.Get(k)
		if got == "" || v != scrubbed && v != got {
			return "a header"
		}
	}
	if !q.bodyMatches(body) {
		return "the body"
	}
	return ""
}

func (q *Request) bodyMatches(body []byte) bool {
	var got any
	isJSON := json.Unmarshal(body, &got) == nil
	switch {
	case q.JSON != nil:
		return isJSON && subset(normalize(q.JSON), got)
	case q.Body == "":
		return true
	}
	var want any
	if isJSON && json.Unmarshal([]byte(q.Body), &want) == nil {
		return reflect.DeepEqual(want, got)
	}
	return q.Body == string(body)
}

// subset reports whether got holds want: the keys of an object that want
// leaves out may hold anything; arrays and other values must be equal.
func subset(want, got any) bool {
	w, ok := want.(map[string]any)
	if !ok {
		return reflect.DeepEqual(want, got)
	}
	g, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range w {
		if gv, found := g[k]; !found || !subset(v, gv) {
			return false
		}
	}
	return true
}

// http makes the response to replay for req.
func (p *Response) http(req *http.Request) *http.Response {
	h := http.Header{}
	for k, v := range p.Headers {
		h.Set(k, v)
	}
	body := []byte(p.Body)
	if p.JSON != nil {
		body, _ = json.Marshal(p.JSON)
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", "application/json")
		}
	}
	status := cmpOrInt(p.Status, http.StatusOK)
	return &http.Response{StatusCode: status, Status: fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h, Body: io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)), Request: req}
}

func cmpOrInt(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

func (r *replayer) missed() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.misses
}

func (r *replayer) recordedExchanges() []*Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recorded
}
