package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// serverMethods are the methods an MCP server receives, as the go-sdk
// serves them; the SDK answers any other request with a text 400.
var serverMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true, "subscriptions/listen": true,
	"tools/list": true, "tools/call": true, "prompts/list": true, "prompts/get": true,
	"resources/list": true, "resources/read": true, "resources/templates/list": true,
	"resources/subscribe": true, "resources/unsubscribe": true,
	"completion/complete": true, "logging/setLevel": true,
	"notifications/initialized": true, "notifications/cancelled": true, "notifications/progress": true,
	"notifications/roots/list_changed": true,
}

// postBody holds a POST's body, read before the go-sdk sees it and handed
// to it again, and what scanning it told. Bodies are pooled: reading one
// costs no allocation. The auth guard takes the body and the scan from it
// (auth.ScannedBody) rather than reading it again.
type postBody struct {
	buf bytes.Buffer
	r   bytes.Reader
	fi  frameInfo
}

func (b *postBody) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *postBody) Close() error               { return nil }

// Bytes returns the whole body.
func (b *postBody) Bytes() []byte { return b.buf.Bytes() }

// Item returns what the request in the body acts on, from the scan: the
// method and name of tools/call and prompts/get, the method and URI of
// resources/read, and nothing for other requests. ok is false when a JSON
// decoder might read the request otherwise: a batch, a key that makes the
// scan unsure, a method or name that is not a plain string (an escape
// sequence, a control character, invalid UTF-8, not a string at all).
func (b *postBody) Item() (method, name string, ok bool) {
	fi := &b.fi
	if fi.array || fi.unsure {
		return "", "", false
	}
	var tok []byte
	switch string(fi.method) {
	case `"tools/call"`:
		method, tok = "tools/call", fi.name
	case `"prompts/get"`:
		method, tok = "prompts/get", fi.name
	case `"resources/read"`:
		method, tok = "resources/read", fi.uri
	default:
		_, plain := plainString(fi.method)
		return "", "", plain || fi.method == nil // no method: a response
	}
	if tok == nil {
		return method, "", true
	}
	name, ok = plainString(tok)
	return method, name, ok
}

// plainString returns the text of a JSON string token that a decoder reads
// as it stands: quoted, without escapes or control characters, valid UTF-8.
func plainString(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", false
	}
	in := tok[1 : len(tok)-1]
	for _, c := range in {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(in) {
		return "", false
	}
	return string(in), true
}

var postBodies = sync.Pool{New: func() any { return new(postBody) }}

// maxPooledBody keeps the pool from holding the rare large body.
const maxPooledBody = 64 << 10

func (b *postBody) free() {
	if b.buf.Cap() <= maxPooledBody {
		b.buf.Reset()
		b.r.Reset(nil)
		b.fi = frameInfo{}
		postBodies.Put(b)
	}
}

// readBody reads a POST's body within the read timeout and the size cap,
// and puts it back for the next handler. It answers 413 or 400 itself when
// the body cannot be read.
func (h *HTTPHandler) readBody(w http.ResponseWriter, r *http.Request) (*postBody, bool) {
	rc := http.NewResponseController(w)
	if h.opts.ReadTimeout > 0 {
		_ = rc.SetReadDeadline(time.Now().Add(h.opts.ReadTimeout)) // unsupported by recorders in tests
	}
	b := postBodies.Get().(*postBody)
	_, err := b.buf.ReadFrom(r.Body)
	if err != nil {
		// The deadline stays: the server must not wait for the rest of a
		// body that does not come before it closes the connection.
		w.Header().Set("Connection", "close")
		b.free()
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", h.opts.MaxBody), http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
		}
		return nil, false
	}
	if h.opts.ReadTimeout > 0 {
		_ = rc.SetReadDeadline(time.Time{})
	}
	b.r.Reset(b.buf.Bytes())
	r.Body = b
	return b, true
}

// knownMethod reports whether a request may go to the go-sdk: it calls a
// method the server serves (the SDK's, or one of the config's such as
// tasks/get), or it is something the SDK judges itself (a response, a
// batch, an escaped or missing method name).
func (h *HTTPHandler) knownMethod(fi frameInfo) bool {
	m := fi.method
	if fi.array || len(m) < 2 || m[0] != '"' || bytes.IndexByte(m, '\\') >= 0 {
		return true
	}
	name := string(m[1 : len(m)-1])
	return serverMethods[name] || slices.Contains(h.extraMethods, name)
}

// refuseMethod answers a request to an unknown method with the JSON-RPC
// error -32601, and accepts an unknown notification, which JSON-RPC says
// to ignore. A 2026-07-28 request gets it with HTTP 404, as that revision
// says.
func refuseMethod(w http.ResponseWriter, fi frameInfo, modernEra bool) {
	if fi.id == nil || string(fi.id) == "null" {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	id := scalarID(fi.id)
	if id == nil {
		http.Error(w, "Bad Request: id must be a string or an integer", http.StatusBadRequest)
		return
	}
	var name string
	_ = json.Unmarshal(fi.method, &name)
	status := http.StatusOK
	if modernEra {
		status = http.StatusNotFound
	}
	writeReply(w, status, errorReply{Version: "2.0", ID: id, Error: jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: fmt.Sprintf("method not found: %q", name)}})
}

// writeReply answers a request with one JSON-RPC error.
func writeReply(w http.ResponseWriter, status int, reply errorReply) {
	b, _ := json.Marshal(reply)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// isInitialize reports whether a request opens a session.
func isInitialize(fi frameInfo) bool { return string(fi.method) == `"initialize"` }

// deadlineWriter bounds each write of a response: a client that stops
// reading is cut off, while a long call or stream that keeps writing is
// not. A write that fails ends the request by itself: net/http cancels
// the request's context when writing to its connection fails (HTTP/1),
// and when it resets the stream at the deadline (HTTP/2); the go-sdk
// waits on that context.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	d     time.Duration
	until time.Time // the deadline last set
}

// extend gives what is written next the write timeout, from now. A deadline
// set within the last sixteenth of the timeout is left as it is: moving
// the connection's deadline is far dearer than reading the clock, and a
// response is written in several writes in a row.
func (w *deadlineWriter) extend() {
	now := time.Now()
	if w.until.Sub(now) > w.d-w.d/16 {
		return
	}
	w.until = now.Add(w.d)
	_ = w.rc.SetWriteDeadline(w.until)
}

// Write writes p within the write timeout.
func (w *deadlineWriter) Write(p []byte) (int, error) {
	w.extend()
	return w.ResponseWriter.Write(p)
}

// Flush sends what is buffered, within the write timeout.
func (w *deadlineWriter) Flush() {
	w.extend()
	_ = w.rc.Flush()
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var (
	_ http.Flusher     = (*deadlineWriter)(nil)
	_ auth.ScannedBody = (*postBody)(nil)
)
