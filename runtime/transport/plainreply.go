package transport

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/segmentio/encoding/json"
)

// plainReplies answers, with one application/json object, the POSTs whose
// only message is a tools/call that sends nothing while it runs: a tool
// without steps, no progress asked for, no logs wanted (by the request or
// its session). The go-sdk answers every request of a stateful session with
// an event stream: a priming event and the response, each flushed on its
// own. For such a call the stream carries nothing but the response, so the
// response goes alone: one write, no event framing, and the client parses
// plain JSON, which the client's Accept header allows.
//
// Everything else streams as the go-sdk writes it. The stream is held until
// the go-sdk is done, and it is rewritten only when it holds exactly one
// message and that message is a response; otherwise it goes out unchanged.
// A call still running after plainReplyWait gets its stream as it is, so
// that a client whose connection drops during a long call can resume it
// from the priming event's ID.
func (h *HTTPHandler) plainReplies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && h.resume(w, r) {
			return
		}
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		var body []byte
		quiet := false
		if pb, ok := r.Body.(*postBody); ok {
			body = pb.buf.Bytes() // read by sessions, kept until the request ends
			quiet = pb.quiet
		} else {
			var err error
			if body, err = io.ReadAll(r.Body); err != nil { // too large: the go-sdk answers 413 from the error
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
				next.ServeHTTP(w, r)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			quiet = h.silentCall(r, body, nil)
		}
		if !quiet {
			next.ServeHTTP(w, r)
			return
		}
		hw := &heldWriter{ResponseWriter: w}
		hw.timer = time.AfterFunc(plainReplyWait, hw.release)
		next.ServeHTTP(hw, r)
		hw.finish()
	})
}

// quick answers a quiet call directly (direct.go) when it can, ahead of
// the call tracker's bookkeeping of the go-sdk's streams: a direct call is
// registered with the tracker by itself, and its stream is its own.
func (h *HTTPHandler) quick(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if pb, ok := r.Body.(*postBody); ok && r.Method == http.MethodPost {
			h.directs.cancelled(header(r.Header, sessionIDHeader), pb.buf.Bytes()) // the go-sdk sees it too
			pb.quiet = h.silentCall(r, pb.buf.Bytes(), &pb.fi)
			if pb.quiet && h.direct(w, r, pb.buf.Bytes()) {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// errReader fails with err once what came before it is read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// callShape is what silentCall reads of a request.
type callShape struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string          `json:"name"`
		Meta json.RawMessage `json:"_meta"`
	} `json:"params"`
}

// silentCall reports whether body is a single tools/call of a tool that
// sends no message to the client while it runs.
//
// The scan of the body (fi, when the caller has it) tells the method, id
// and tool name, and a body that never mentions a progress token or a log
// level asks for no message while the call runs. Those keys can be spelled
// otherwise only with a \u or \/ escape: a body holding one is decoded
// instead, _meta's keys included.
func (h *HTTPHandler) silentCall(r *http.Request, body []byte, fi *frameInfo) bool {
	if bytes.Contains(body, []byte(`"progressToken"`)) || bytes.Contains(body, []byte(mcp.MetaKeyLogLevel)) {
		return false
	}
	name, scanned := "", false
	if fi != nil && !bytes.Contains(body, []byte(`\u`)) && !bytes.Contains(body, []byte(`\/`)) {
		if fi.array || fi.unsure || string(fi.method) != `"tools/call"` || len(fi.id) == 0 {
			return false
		}
		name, scanned = plainString(fi.name)
	}
	if !scanned {
		var c callShape
		if _, err := json.Parse(body, &c, json.ZeroCopy); err != nil || c.Method != "tools/call" || len(c.ID) == 0 {
			return false
		}
		if len(c.Params.Meta) > 0 {
			var meta map[string]json.RawMessage
			if _, err := json.Parse(c.Params.Meta, &meta, 0); err != nil {
				return false
			}
			if _, ok := meta["progressToken"]; ok {
				return false
			}
			if _, ok := meta[mcp.MetaKeyLogLevel]; ok {
				return false
			}
		}
		name = c.Params.Name
	}
	return h.srv.QuietCall(name, header(r.Header, sessionIDHeader))
}

// plainReplyWait is how long a call's event stream is held back in the
// hope that the call ends first and its response can go as plain JSON.
const plainReplyWait = 100 * time.Millisecond

// heldWriter holds what the go-sdk writes until it is done, or until
// release lets it through.
type heldWriter struct {
	http.ResponseWriter
	timer *time.Timer

	mu       sync.Mutex // the go-sdk and the timer both write
	code     int
	buf      bytes.Buffer
	released bool // writes go through
	done     bool
}

func (hw *heldWriter) WriteHeader(code int) {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	if hw.released {
		hw.ResponseWriter.WriteHeader(code)
	} else if hw.code == 0 {
		hw.code = code
	}
}

func (hw *heldWriter) Write(p []byte) (int, error) {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	if hw.released {
		return hw.ResponseWriter.Write(p)
	}
	if hw.code == 0 {
		hw.code = http.StatusOK
	}
	return hw.buf.Write(p)
}

// Flush flushes once the stream is released; before, what is held goes out
// when the go-sdk is done or the wait is over.
func (hw *heldWriter) Flush() {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	if hw.released {
		_ = http.NewResponseController(hw.ResponseWriter).Flush()
	}
}

// release sends what is held, as it is, and lets later writes through: the
// call is taking long, and its client may need the stream to resume it.
func (hw *heldWriter) release() {
	hw.mu.Lock()
	defer hw.mu.Unlock()
	if hw.done || hw.released {
		return
	}
	hw.released = true
	if hw.code == 0 {
		return // nothing written yet
	}
	hw.ResponseWriter.WriteHeader(hw.code)
	_, _ = hw.ResponseWriter.Write(hw.buf.Bytes())
	_ = http.NewResponseController(hw.ResponseWriter).Flush()
}

// finish sends what is still held: the response alone as JSON when the
// event stream holds nothing else, or else the stream unchanged.
func (hw *heldWriter) finish() {
	hw.timer.Stop()
	hw.mu.Lock()
	defer hw.mu.Unlock()
	hw.done = true
	w := hw.ResponseWriter
	if hw.released || hw.code == 0 {
		return
	}
	if msg, ok := onlyResponse(w.Header(), hw.code, hw.buf.Bytes()); ok {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Del("Connection")
		h.Set("Content-Length", strconv.Itoa(len(msg)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(msg)
		return
	}
	w.WriteHeader(hw.code)
	_, _ = w.Write(hw.buf.Bytes())
}

// onlyResponse returns the one JSON-RPC response of an event stream that
// holds nothing else but events without data (the priming event).
func onlyResponse(h http.Header, code int, stream []byte) ([]byte, bool) {
	if code != http.StatusOK || h.Get("Content-Type") != "text/event-stream" {
		return nil, false
	}
	var msg []byte
	for event := range bytes.SplitSeq(stream, []byte("\n\n")) {
		data := eventData(event)
		switch {
		case len(data) == 0:
			continue
		case msg != nil:
			return nil, false
		}
		msg = data
	}
	if msg == nil || !isResponse(msg) {
		return nil, false
	}
	return msg, true
}

// eventData returns the data of one event: its data lines joined.
func eventData(event []byte) []byte {
	var data [][]byte
	for line := range bytes.SplitSeq(event, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(v, []byte(" ")))
		}
	}
	return bytes.Join(data, []byte("\n"))
}

// isResponse reports whether msg is a JSON-RPC response: an object with an
// id and no method.
func isResponse(msg []byte) bool {
	fi := scanFrame(msg)
	return !fi.array && fi.id != nil && string(fi.id) != "null" && !fi.hasMethod && json.Valid(msg)
}

var (
	_ http.ResponseWriter = (*heldWriter)(nil)
	_ http.Flusher        = (*heldWriter)(nil)
)
