package httpkind

import (
	"crypto/sha256"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Bounds of the responses one tool keeps for revalidation.
const (
	keptMaxEntries = 256
	keptMaxBytes   = 16 << 20
)

// keeper keeps the last response of each GET a tool sent that carried an
// ETag or Last-Modified, to revalidate it (If-None-Match,
// If-Modified-Since) and serve it again when the API answers 304 Not
// Modified. Responses are kept per request: its URL and every header the
// request carries before it is signed, credentials included, so one
// caller's response is never served to another.
type keeper struct {
	mu    sync.Mutex
	kept  map[[32]byte]*keptResponse
	order [][32]byte // oldest first
	bytes int
}

// keptResponse is a response kept for revalidation.
type keptResponse struct {
	etag, modified string
	status         int
	header         http.Header
	body           []byte
}

func newKeeper() *keeper { return &keeper{kept: map[[32]byte]*keptResponse{}} }

// prepare makes req conditional when a response to the same request is
// kept. It returns the request's key (ok false: not to be kept, a request
// other than GET, or one whose config sets its own conditions).
func (k *keeper) prepare(req *http.Request) (key [32]byte, kept *keptResponse, ok bool) {
	if k == nil || req.Method != http.MethodGet ||
		req.Header.Get("If-None-Match") != "" || req.Header.Get("If-Modified-Since") != "" {
		return key, nil, false
	}
	key = requestKey(req)
	k.mu.Lock()
	kept = k.kept[key]
	k.mu.Unlock()
	if kept != nil && kept.etag != "" {
		req.Header.Set("If-None-Match", kept.etag)
	} else if kept != nil {
		req.Header.Set("If-Modified-Since", kept.modified)
	}
	return key, kept, true
}

// settle serves the kept response for a 304 and keeps a fresh one that
// can be revalidated.
func (k *keeper) settle(key [32]byte, kept *keptResponse, r *response) *response {
	switch {
	case r.status == http.StatusNotModified && kept != nil:
		header := kept.header.Clone()
		for name, v := range r.header { // a 304 updates the stored headers (RFC 9111 §4.3.4)
			if !strings.HasPrefix(name, "Content-") {
				header[name] = v
			}
		}
		return &response{status: kept.status, header: header, body: kept.body, url: r.url}
	case r.status == http.StatusOK && !r.truncated:
		etag, modified := r.header.Get("ETag"), r.header.Get("Last-Modified")
		if etag != "" || modified != "" {
			k.keep(key, &keptResponse{etag: etag, modified: modified, status: r.status,
				header: r.header.Clone(), body: r.body})
		}
	}
	return r
}

// keep stores a response, dropping the oldest past the bounds.
func (k *keeper) keep(key [32]byte, kr *keptResponse) {
	if len(kr.body) > keptMaxBytes/4 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if old := k.kept[key]; old != nil {
		k.bytes -= len(old.body)
		k.order = slices.DeleteFunc(k.order, func(x [32]byte) bool { return x == key })
	}
	k.kept[key] = kr
	k.order = append(k.order, key)
	k.bytes += len(kr.body)
	for len(k.order) > keptMaxEntries || k.bytes > keptMaxBytes {
		oldest := k.order[0]
		k.order = k.order[1:]
		k.bytes -= len(k.kept[oldest].body)
		delete(k.kept, oldest)
	}
}

// requestKey digests what makes a request the same one: its method, URL
// and headers.
func requestKey(req *http.Request) [32]byte {
	h := sha256.New()
	h.Write([]byte(req.Method + " " + req.URL.String() + "\n"))
	for _, name := range slices.Sorted(maps.Keys(req.Header)) {
		for _, v := range req.Header[name] {
			h.Write([]byte(name + ": " + v + "\n"))
		}
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
}
