package transport

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Header names of the Streamable HTTP transport, in canonical form (see
// header).
const (
	sessionIDHeader       = "Mcp-Session-Id"
	protocolVersionHeader = "Mcp-Protocol-Version"
	lastEventIDHeader     = "Last-Event-Id"
)

// header returns the first value of the header named by key, which must
// be in canonical form: http.Header.Get canonicalizes its key on every
// call, and a request passes many such checks.
func header(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// sessions reads each POST's body to answer, before the go-sdk sees it,
// what the SDK would answer badly (an unknown method, a request without a
// session), decides the request's era (era.go), admits new sessions
// (refused while draining, at the cap, or beyond the client address's
// share), and aligns the protocol version header of requests on an existing
// session with the session's.
func (h *HTTPHandler) sessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var fi frameInfo
		var raw []byte
		if r.Method == http.MethodPost {
			body, ok := h.readBody(w, r)
			if !ok {
				return
			}
			defer body.free()
			raw = body.buf.Bytes()
			fi = scanFrame(raw)
			body.fi = fi
		}
		modernEra := isModern(r, raw, fi)
		sessionless := h.opts.Stateless || modernEra
		if r.Method == http.MethodPost {
			if !h.knownMethod(fi) {
				refuseMethod(w, fi, modernEra)
				return
			}
			if badID(fi) {
				writeReply(w, http.StatusBadRequest, errorReply{Version: "2.0", ID: scalarID(fi.id),
					Error: jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: msgBadID}})
				return
			}
		}
		id := header(r.Header, sessionIDHeader)
		switch {
		case sessionless:
			if h.calls.draining() {
				unavailable(w, "server is shutting down")
				return
			}
			if !h.opts.Stateless {
				r = withModern(r)
			}
		case id == "" && r.Method == http.MethodPost:
			h.open(w, r, fi, next)
			return
		case id != "":
			if string(fi.method) != `"notifications/initialized"` {
				h.unconfirmed.confirm(id)
			}
			h.alignVersion(r, id)
			if h.shared != nil {
				h.shared.Touch(r.Context(), id) // a session in use does not expire in Redis
			}
		}
		next.ServeHTTP(w, r)
	})
}

// open serves a POST without a session id on a stateful server: only
// initialize may come so, and it opens a session if one may be opened.
func (h *HTTPHandler) open(w http.ResponseWriter, r *http.Request, fi frameInfo, next http.Handler) {
	if !isInitialize(fi) {
		http.Error(w, "Bad Request: missing Mcp-Session-Id header; only initialize may come without one", http.StatusBadRequest)
		return
	}
	if !h.admit(w) {
		return
	}
	addr := clientAddr(r, h.opts.TrustedProxies)
	if !h.perClient.reserve(addr, h.liveSessions) {
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("too many sessions from this address (limit %d); close some or retry later",
			h.opts.MaxSessionsPerClient), http.StatusTooManyRequests)
		return
	}
	defer func() {
		id := w.Header().Get(sessionIDHeader)
		h.perClient.opened(addr, id)
		h.unconfirmed.add(id)
	}()
	next.ServeHTTP(w, r)
}

// liveSessions returns the ids of the sessions open now.
func (h *HTTPHandler) liveSessions() map[string]bool {
	ids := map[string]bool{}
	for ss := range h.mcp.Sessions() {
		ids[ss.ID()] = true
	}
	return ids
}

// SessionCount returns the number of sessions open now. The sessions of
// stateless requests have no ID and are not counted.
func (h *HTTPHandler) SessionCount() int {
	n := 0
	for ss := range h.mcp.Sessions() {
		if ss.ID() != "" {
			n++
		}
	}
	return n
}

// admit reports whether a new session may start, answering 503 if not.
// Sessions that never sent a request after their initialize are closed
// once past their lifetime, and at the cap the oldest of them makes room.
func (h *HTTPHandler) admit(w http.ResponseWriter) bool {
	if h.calls.draining() {
		unavailable(w, "server is shutting down")
		return false
	}
	full := h.opts.MaxSessions >= 0 && h.SessionCount() >= h.opts.MaxSessions
	if ids := h.unconfirmed.expired(full); len(ids) > 0 {
		h.closeSessions(ids)
		full = h.opts.MaxSessions >= 0 && h.SessionCount() >= h.opts.MaxSessions
	}
	if full {
		unavailable(w, "too many sessions; retry later")
		return false
	}
	return true
}

// closeSessions closes the sessions of this replica with the given ids.
func (h *HTTPHandler) closeSessions(ids []string) {
	for ss := range h.mcp.Sessions() {
		if slices.Contains(ids, ss.ID()) {
			_ = ss.Close()
		}
	}
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
	v := header(r.Header, protocolVersionHeader)
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
