package transport

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Header names of the Streamable HTTP transport.
const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
)

// sessions admits new sessions (refused while draining or at the cap) and
// aligns the protocol version header of requests on an existing session with
// the version the session negotiated.
func (h *HTTPHandler) sessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionIDHeader)
		switch {
		case h.opts.Stateless:
			if h.calls.draining() {
				unavailable(w, "server is shutting down")
				return
			}
		case id == "" && r.Method == http.MethodPost:
			if !h.admit(w) {
				return
			}
		case id != "":
			h.alignVersion(r, id)
		}
		next.ServeHTTP(w, r)
	})
}

// admit reports whether a new session may start, answering 503 if not.
func (h *HTTPHandler) admit(w http.ResponseWriter) bool {
	if h.calls.draining() {
		unavailable(w, "server is shutting down")
		return false
	}
	if h.opts.MaxSessions < 0 {
		return true
	}
	n := 0
	for range h.mcp.Sessions() {
		n++
	}
	if n >= h.opts.MaxSessions {
		unavailable(w, "too many sessions; retry later")
		return false
	}
	return true
}

func unavailable(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(1))
	http.Error(w, msg, http.StatusServiceUnavailable)
}

// alignVersion replaces an older, but supported, MCP-Protocol-Version header
// with the session's negotiated version. The go-sdk decides from the header
// whether a stream gets a priming event and a retry field (2025-11-25 and
// later); some clients send an older version than they negotiated, and the
// session's own version is the one that says what the client understands.
func (h *HTTPHandler) alignVersion(r *http.Request, id string) {
	v := r.Header.Get(protocolVersionHeader)
	if v == "" || v >= latestStreamVersion || !slices.Contains(mcp.SupportedProtocolVersions(), v) {
		return // unsupported versions are the go-sdk's to refuse
	}
	for ss := range h.mcp.Sessions() {
		if ss.ID() != id {
			continue
		}
		if p := ss.InitializeParams(); p != nil && p.ProtocolVersion > v && p.ProtocolVersion < statelessOnlyVersion {
			r.Header.Set(protocolVersionHeader, p.ProtocolVersion)
		}
		return
	}
}

// Protocol revisions that change stream behaviour.
const (
	latestStreamVersion  = "2025-11-25" // priming events and retry fields
	statelessOnlyVersion = "2026-07-28" // served only in stateless mode
)
