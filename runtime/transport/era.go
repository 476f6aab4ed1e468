package transport

import (
	"context"
	"net/http"
)

// One endpoint serves both eras of MCP. Clients up to 2025-11-25 open a
// session with initialize and are served by the go-sdk's stateful handler:
// server-to-client requests, subscriptions and resumable streams work for
// them. Clients of 2026-07-28 and later send every request on its own,
// carrying its protocol version in the MCP-Protocol-Version header and in
// params._meta, and are served by the stateless handler. Both handlers share
// one go-sdk server, and every wrapper (Host and Origin, auth, limits,
// tracking) runs before the choice.

// metaVersionKey is the params._meta key of a modern request's version.
const metaVersionKey = "io.modelcontextprotocol/protocolVersion"

// isModern decides the era of a request to a server that serves both, from
// what was read already (the headers, and the body of a POST with its scan):
//  1. MCP-Protocol-Version at or after 2026-07-28 (or an unknown later one,
//     which the stateless handler refuses with the list of versions); an
//     older one is legacy too, unless the body carries _meta's protocol
//     version: the stateless handler then refuses the disagreement
//     (-32020) instead of a legacy handler refusing a request it cannot
//     read;
//  2. otherwise a request on a session is legacy;
//  3. a sessionless GET or DELETE is modern, which answers it with 405;
//  4. a sessionless POST is modern if it is server/discover or its params
//     carry _meta's protocol version; anything else (initialize, a client
//     older than 2025-06-18 without the header) is legacy.
func isModern(r *http.Request, body []byte, fi frameInfo) bool {
	if v := header(r.Header, protocolVersionHeader); v != "" {
		return v >= statelessOnlyVersion || r.Method == http.MethodPost && metaVersion(body) != nil
	}
	if header(r.Header, sessionIDHeader) != "" {
		return false
	}
	if r.Method != http.MethodPost {
		return true
	}
	if string(fi.method) == `"server/discover"` {
		return true
	}
	return metaVersion(body) != nil
}

// metaVersion returns the raw protocol version in a request's
// params._meta, or nil.
func metaVersion(body []byte) []byte {
	return jsonField(jsonField(jsonField(body, "params"), "_meta"), metaVersionKey)
}

type modernKey struct{}

// withModern marks a request for the stateless handler.
func withModern(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), modernKey{}, true))
}

// modern reports whether a request was marked for the stateless handler.
func modern(r *http.Request) bool {
	v, _ := r.Context().Value(modernKey{}).(bool)
	return v
}

// eraRouter sends each request to the handler of its era.
type eraRouter struct{ stateful, stateless http.Handler }

func (e eraRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if modern(r) {
		e.stateless.ServeHTTP(w, r)
		return
	}
	e.stateful.ServeHTTP(w, r)
}

// jsonField returns the raw value of the member name of the JSON object
// obj, or nil when obj is not an object or has no such member. It reads
// the bytes in place and allocates nothing; names with escapes are not
// matched.
func jsonField(obj []byte, name string) []byte {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return nil
		}
		end := skipValue(obj, i)
		if end < 0 {
			return nil
		}
		key := obj[i+1 : end-1]
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return nil
		}
		start := skipSpace(obj, i+1)
		end = skipValue(obj, start)
		if end < 0 {
			return nil
		}
		if string(key) == name {
			return obj[start:end]
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ',' {
			return nil
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// skipValue returns the index just past the JSON value starting at b[i], or
// -1 when it does not end.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		for j, escaped := i+1, false; j < len(b); j++ {
			switch {
			case escaped:
				escaped = false
			case b[j] == '\\':
				escaped = true
			case b[j] == '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth, inString, escaped := 0, false, false
		for j := i; j < len(b); j++ {
			c := b[j]
			if inString {
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
				}
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
