package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// A tools/call that sends nothing while it runs (plainreply.go) is answered
// here, in the goroutine of its HTTP request, as one JSON object: the
// request is decoded once, goes through the session's checks and receiving
// middleware like any other (mcp.ServerSession.Answer), and its response is
// encoded once and written once. The go-sdk's streamable transport would
// pass it through three goroutines and an event stream that plainReplies
// then rewrites.
//
// Only what is simple goes this way: one request, a protocol version before
// 2026-07-28 (whose header rules the go-sdk checks), a session this
// replica holds (stateful) or none (stateless). Everything else goes to the
// go-sdk as before.
//
// A call of a stateful session still running after plainReplyWait gets an
// event stream of its own, so that a client whose connection drops can
// resume it with Last-Event-ID within the resume window, as with the
// go-sdk's streams: a priming event now, the response when it comes.

// directStreamPrefix starts the IDs of the event streams of direct calls,
// which the go-sdk's stream IDs never do.
const directStreamPrefix = "mcpgen-"

// directCalls holds what direct calls need beyond one request: the
// sessionless sessions of stateless mode and the streams of long calls.
type directCalls struct {
	mu        sync.Mutex
	seq       uint64
	streams   map[string]*directStream // by stream ID
	ephemeral map[string]sessionless   // by protocol version
	running   map[runningCall]context.CancelCauseFunc
}

// runningCall names a direct call of a session by its request ID.
type runningCall struct {
	session string
	id      jsonrpc.ID
}

// run registers the call id of session, which notifications/cancelled can
// cancel until the returned function forgets it.
func (d *directCalls) run(session string, id jsonrpc.ID, cancel context.CancelCauseFunc) func() {
	key := runningCall{session, id}
	d.mu.Lock()
	d.running[key] = cancel
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		delete(d.running, key)
		d.mu.Unlock()
	}
}

// cancelled cancels the direct call that body, a notifications/cancelled
// of session, names, if one runs: it then gets no response.
func (d *directCalls) cancelled(session string, body []byte) {
	if session == "" || !bytes.Contains(body, []byte("notifications/cancelled")) {
		return
	}
	var n struct {
		Method string
		Params struct {
			RequestID any `json:"requestId"`
		}
	}
	if json.Unmarshal(body, &n) != nil || n.Method != "notifications/cancelled" {
		return
	}
	id, err := jsonrpc.MakeID(n.Params.RequestID)
	if err != nil {
		return
	}
	d.mu.Lock()
	cancel := d.running[runningCall{session, id}]
	d.mu.Unlock()
	if cancel != nil {
		cancel(errCancelledByPeer)
	}
}

// sessionless is a session standing for stateless clients, and the client
// end of its in-memory connection.
type sessionless struct {
	ss     *mcp.ServerSession
	client mcp.Connection
}

func newDirectCalls() *directCalls {
	return &directCalls{streams: map[string]*directStream{}, ephemeral: map[string]sessionless{},
		running: map[runningCall]context.CancelCauseFunc{}}
}

// directStream is the event stream of one long direct call.
type directStream struct {
	id, session string
	cancel      context.CancelFunc
	window      time.Duration
	calls       *directCalls

	mu       sync.Mutex
	done     chan struct{} // closed once msg is set
	msg      []byte
	carriers int // requests carrying the stream now
	timer    *time.Timer
}

// direct answers the quiet call r, whose body is body, and reports whether
// it did; when it did not, nothing was written.
func (h *HTTPHandler) direct(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if modern(r) || header(r.Header, lastEventIDHeader) != "" || !directHeaders(r) {
		return false
	}
	version := header(r.Header, protocolVersionHeader)
	if version >= statelessOnlyVersion || (version != "" && !slices.Contains(mcp.SupportedProtocolVersions(), version)) {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	req, ok := msg.(*jsonrpc.Request)
	if err != nil || !ok || !req.IsCall() {
		return false
	}
	req.Extra = &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header}
	if h.opts.Stateless {
		ss, err := h.directs.sessionlessSession(r.Context(), h.mcp, version)
		if err != nil {
			return false
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		ctx, leave, ok := h.calls.follow(ctx, cancel)
		if !ok {
			return false // shutting down: the go-sdk's path refuses it
		}
		defer leave()
		var rb resultBuffer
		writeResponse(w, ss.Answer(ctx, req, rb.encode))
		rb.release()
		return true
	}
	if h.shared != nil {
		return false // a stream must be resumable on every replica
	}
	ss, done, ok := h.statefulSDK.LookupSession(r)
	if !ok {
		return false
	}
	defer done()
	return h.answerResumable(w, r, ss, req)
}

// directHeaders reports whether r's headers are those the go-sdk accepts
// for a POST; otherwise the go-sdk answers it with its own refusal.
func directHeaders(r *http.Request) bool {
	if ct, _, _ := strings.Cut(header(r.Header, "Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), "application/json") {
		return false
	}
	var jsonOK, streamOK bool
	for _, v := range r.Header["Accept"] {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(mt)) {
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK && streamOK
}

// encodeBody encodes a response as an HTTP body.
func encodeBody(resp *jsonrpc.Response) ([]byte, error) {
	line, err := encodeLine(resp)
	return bytes.TrimSuffix(line, []byte("\n")), err
}

// writeResponse writes a call's response as one JSON object. A result,
// most of what is written, goes out in the parts encodeLine would join,
// without joining them.
func writeResponse(w http.ResponseWriter, resp *jsonrpc.Response) {
	head, ok := appendResultHead(make([]byte, 0, 64), resp)
	if !ok {
		reply, err := encodeBody(resp)
		writeDirect(w, reply, err)
		return
	}
	jsonHeaders(w.Header(), len(head)+len(resp.Result)+1)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(head)
	_, _ = w.Write(resp.Result)
	_, _ = w.Write(closingBrace)
}

var closingBrace = []byte("}")

// writeDirect writes a call's response as one JSON object.
func writeDirect(w http.ResponseWriter, reply []byte, err error) {
	if err != nil {
		http.Error(w, "encoding the response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	jsonHeaders(w.Header(), len(reply))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(reply)
}

// The values of jsonHeaders, shared: a header's value slice is replaced or
// appended to, never written in place.
var (
	jsonContentType = []string{"application/json"}
	noTransform     = []string{"no-cache, no-transform"}
)

// jsonHeaders sets the headers of a JSON body of n bytes. net/http writes
// the Content-Length of a body shorter than its response buffer (2 KiB)
// itself, as the handler returns; a longer one is given here.
func jsonHeaders(h http.Header, n int) {
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noTransform
	if n >= 2048 {
		h["Content-Length"] = []string{strconv.Itoa(n)}
	}
}

// sessionlessSession returns the session that stands for the stateless clients
// of one protocol version. The go-sdk gives each stateless request a
// session of its own with this same state (initialized, capabilities
// unknown); quiet calls read nothing else of it, so one serves them all.
// Its client end is read and dropped.
func (d *directCalls) sessionlessSession(ctx context.Context, srv *mcp.Server, version string) (*mcp.ServerSession, error) {
	if version == "" {
		version = "2025-03-26" // what the go-sdk assumes without the header
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.ephemeral[version]; ok {
		return e.ss, nil
	}
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ctx = context.WithoutCancel(ctx)
	ss, err := srv.Connect(ctx, serverEnd, &mcp.ServerSessionOptions{State: &mcp.ServerSessionState{
		InitializeParams: &mcp.InitializeParams{ProtocolVersion: version}, InitializedParams: &mcp.InitializedParams{},
		LogLevel: "info"}})
	if err != nil {
		return nil, err
	}
	conn, err := clientEnd.Connect(ctx)
	if err != nil {
		_ = ss.Close()
		return nil, err
	}
	go func() {
		for {
			if _, err := conn.Read(ctx); err != nil {
				return
			}
		}
	}()
	d.ephemeral[version] = sessionless{ss: ss, client: conn}
	return ss, nil
}

// close ends the sessionless sessions.
func (d *directCalls) close() {
	d.mu.Lock()
	ephemeral := d.ephemeral
	d.ephemeral = map[string]sessionless{}
	d.mu.Unlock()
	for _, e := range ephemeral {
		_ = e.ss.Close()
		_ = e.client.Close()
	}
}

// answerResumable answers req of session ss in this goroutine. A call
// that ends within plainReplyWait gets one JSON object. Otherwise the
// response becomes an event stream: a priming event at once, the response
// when it comes. A client that goes away before the stream began has its
// call canceled at once; one that goes away after may resume within the
// resume window.
//
// It reports false, writing nothing, when the server is shutting down.
func (h *HTTPHandler) answerResumable(w http.ResponseWriter, r *http.Request, ss *mcp.ServerSession, req *jsonrpc.Request) bool {
	ctx, cancelCause := context.WithCancelCause(context.WithoutCancel(r.Context()))
	cancel := func() { cancelCause(nil) }
	defer cancel()
	ctx, leave, ok := h.calls.follow(ctx, cancel)
	if !ok {
		return false
	}
	defer leave()
	defer h.directs.run(ss.ID(), req.ID, cancelCause)()
	c := &resumableCall{h: h, w: w, r: r, ss: ss, cancel: cancel}
	begin := time.AfterFunc(plainReplyWait, c.begin)
	gone := context.AfterFunc(r.Context(), c.gone)
	var rb resultBuffer
	resp := ss.Answer(ctx, req, rb.encode)
	begin.Stop()
	gone()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	stream := c.stream
	if errors.Is(context.Cause(ctx), errCancelledByPeer) {
		// the client asked for no response: its stream ends without one
		rb.release()
		if stream != nil {
			stream.finish(nil)
			stream.delivered()
			return true
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		return true
	}
	if stream == nil {
		writeResponse(w, resp)
		rb.release()
		return true
	}
	reply, err := encodeBody(resp)
	rb.release()
	if err != nil {
		reply, _ = jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID,
			Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "encoding the response: " + err.Error()}})
	}
	stream.finish(reply)
	if r.Context().Err() == nil {
		writeEvent(w, stream.id, reply)
		stream.delivered()
	}
	return true
}

// resumableCall is what the timer and the watch of answerResumable share
// with it: the stream once it began, whether the call ended.
type resumableCall struct {
	h      *HTTPHandler
	w      http.ResponseWriter
	r      *http.Request
	ss     *mcp.ServerSession
	cancel context.CancelFunc
	mu     sync.Mutex
	stream *directStream // set once the stream began
	ended  bool
}

// begin turns the response into an event stream, with its priming event,
// unless the call ended or the client went away.
func (c *resumableCall) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended || c.r.Context().Err() != nil {
		return
	}
	c.stream = c.h.directs.open(c.ss.ID(), c.cancel, c.h.opts.ResumeWindow)
	hd := c.w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache, no-transform")
	c.w.WriteHeader(http.StatusOK)
	fmt.Fprintf(c.w, "id: %s_0\ndata: \n\n", c.stream.id)
	_ = http.NewResponseController(c.w).Flush()
}

// gone is called when the client went away: before the stream began, the
// call is canceled; after, the stream lives on for a resumption.
func (c *resumableCall) gone() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stream == nil {
		c.cancel()
		return
	}
	c.stream.release()
}

// writeEvent writes the response event of a direct call's stream.
func writeEvent(w http.ResponseWriter, id string, reply []byte) {
	fmt.Fprintf(w, "event: message\nid: %s_1\ndata: %s\n\n", id, reply)
	_ = http.NewResponseController(w).Flush()
}

// open registers the stream of a long call of session sessionID, carried
// by its POST.
func (d *directCalls) open(sessionID string, cancel context.CancelFunc, window time.Duration) *directStream {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seq++
	s := &directStream{id: directStreamPrefix + strconv.FormatUint(d.seq, 36), session: sessionID, cancel: cancel,
		window: window, calls: d, done: make(chan struct{}), carriers: 1}
	d.streams[s.id] = s
	return s
}

// release ends one carrier of the stream: with none left, the call is
// canceled after the resume window unless a client resumes it first.
func (s *directStream) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.carriers--; s.carriers > 0 {
		return
	}
	if s.window < 0 {
		s.expire()
		return
	}
	s.timer = time.AfterFunc(s.window, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.carriers == 0 {
			s.expire()
		}
	})
}

// expire cancels the call and forgets the stream; s.mu is held.
func (s *directStream) expire() {
	s.cancel()
	s.calls.forget(s.id)
}

// finish records the call's response.
func (s *directStream) finish(reply []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msg = reply
	close(s.done)
}

// delivered notes that the response went to a client. The stream is kept
// for the resume window, for a client whose connection dropped while the
// response was on its way; then it is forgotten.
func (s *directStream) delivered() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.window <= 0 {
		s.calls.forget(s.id)
		return
	}
	s.timer = time.AfterFunc(s.window, func() { s.calls.forget(s.id) })
}

func (d *directCalls) forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.streams, id)
}

// resume serves a GET with Last-Event-ID on the stream of a direct call,
// and reports whether the ID named one.
func (h *HTTPHandler) resume(w http.ResponseWriter, r *http.Request) bool {
	last := header(r.Header, lastEventIDHeader)
	if !strings.HasPrefix(last, directStreamPrefix) {
		return false
	}
	id, index, _ := strings.Cut(last, "_")
	h.directs.mu.Lock()
	s := h.directs.streams[id]
	h.directs.mu.Unlock()
	if s == nil || s.session != header(r.Header, sessionIDHeader) {
		http.Error(w, "Not Found: no stream "+id+" of this session to resume", http.StatusNotFound)
		return true
	}
	s.mu.Lock()
	s.carriers++
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).Flush()
	select {
	case <-s.done:
		s.mu.Lock()
		s.carriers--
		s.mu.Unlock()
		if index == "0" && s.msg != nil { // nil: cancelled, no response
			writeEvent(w, s.id, s.msg)
		}
		s.delivered()
	case <-r.Context().Done():
		s.release()
	}
	return true
}
