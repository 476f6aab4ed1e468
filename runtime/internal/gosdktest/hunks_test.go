package gosdktest

import (
	"slices"
	"strings"
	"testing"
)

// A hunkCanary claims the hunks of the patch in file that add or remove a
// line containing match for the canaries that fail once upstream ships
// what they do. A canary is "TestUpstreamStillLacksPatchAPI/" and a name of
// patchAPI, "TestUpstreamStillBehavesUnpatched/" and a probe, or one of the
// two canaries of patch_test.go. why says why the hunk is there for a hunk
// that has no comment of its own saying it.
type hunkCanary struct {
	file, match string
	canaries    []string
	why         string
}

const (
	apiCanary       = "TestUpstreamStillLacksPatchAPI/"
	probeCanary     = "TestUpstreamStillBehavesUnpatched/"
	decodeCanary    = "TestUpstreamStillDecodesIntoFreshBuffers"
	cancelledCanary = "TestUpstreamStillAnswersCancelledRequests"
)

// Parts of the patch grouped by purpose, each hunk with its canaries.
// Several speed hunks have no effect upstream's API can see on its own:
// they share the probe postBytes (the bytes a stateless POST allocates),
// which fails once upstream caught up on all of them together.
var hunkCanaries = []hunkCanary{
	// API gaps.
	{file: "auth/auth.go", match: "func ContextWithTokenInfo", canaries: []string{apiCanary + "auth.ContextWithTokenInfo"}},
	{file: "mcp/protocol.go", match: "type TaskParams struct", canaries: []string{apiCanary + "mcp.TaskParams"}},
	{file: "mcp/protocol.go", match: "Task *TaskParams", canaries: []string{apiCanary + "mcp.CallToolParams.Task", apiCanary + "mcp.CallToolParamsRaw.Task"}},
	{file: "mcp/protocol.go", match: "type ToolExecution struct", canaries: []string{apiCanary + "mcp.ToolExecution"}},
	{file: "mcp/protocol.go", match: "Execution *ToolExecution", canaries: []string{apiCanary + "mcp.Tool.Execution"}},
	{file: "mcp/protocol.go", match: "Tasks map[string]any", canaries: []string{apiCanary + "mcp.ServerCapabilities.Tasks"}},
	{file: "mcp/protocol.go", match: "cp.Tasks = maps.Clone(c.Tasks)", canaries: []string{apiCanary + "mcp.ServerCapabilities.Tasks"}},
	{file: "mcp/streamable_headers.go", match: `case "tasks/get", "tasks/update", "tasks/cancel":`, canaries: []string{probeCanary + "tasksNeedMcpName"}},
	{file: "mcp/streamable_headers.go", match: `msg.Method == "tasks/get"`, canaries: []string{probeCanary + "tasksNeedMcpName"}},
	{file: "mcp/server.go", match: "HeaderTool func(name string) *Tool", canaries: []string{apiCanary + "mcp.ServerOptions.HeaderTool"}},
	{file: "mcp/server.go", match: "func (s *Server) headerTool(", canaries: []string{apiCanary + "mcp.ServerOptions.HeaderTool"}},
	{file: "mcp/streamable.go", match: "toolLookup = server.headerTool", canaries: []string{apiCanary + "mcp.ServerOptions.HeaderTool"}},
	{file: "mcp/server.go", match: "func (s *Server) NotifyToolListChanged()", canaries: []string{apiCanary + "mcp.Server.NotifyToolListChanged"}},
	{file: "mcp/server.go", match: "func (ss *ServerSession) SendNotification(", canaries: []string{apiCanary + "mcp.ServerSession.SendNotification"}},
	{file: "mcp/protocol.go", match: "func setUnsetResultType(", canaries: []string{probeCanary + "middlewareResultType"}},

	// Adopting a session from shared state (SessionStore).
	{file: "mcp/streamable.go", match: "SessionStore SessionStore", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.SessionStore"}},
	{file: "mcp/streamable.go", match: "type SessionStore interface", canaries: []string{apiCanary + "mcp.SessionStore"}},
	{file: "mcp/streamable.go", match: "h.adoptSession(req, sessionID)", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.SessionStore"}},
	{file: "mcp/streamable.go", match: "h.opts.SessionStore", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.SessionStore", apiCanary + "mcp.SessionStore.Delete"}},
	{file: "mcp/streamable.go", match: "func (h *StreamableHTTPHandler) adoptSession(", canaries: []string{apiCanary + "mcp.SessionStore.Load"}},
	{file: "mcp/streamable.go", match: "transport.connection.userID = userID", canaries: []string{apiCanary + "mcp.SessionStore.Store"}},
	{file: "mcp/streamable.go", match: "sessInfo.transport.ServeHTTP(w, req)", canaries: []string{apiCanary + "mcp.SessionStore.Load"}},
	{file: "mcp/streamable.go", match: "sessionStore SessionStore", canaries: []string{apiCanary + "mcp.SessionStore.Store"}},
	{file: "mcp/streamable.go", match: "t.sessionStore", canaries: []string{apiCanary + "mcp.SessionStore.Store"}},
	{file: "mcp/streamable.go", match: "func (c *streamableServerConn) sessionUpdated(", canaries: []string{apiCanary + "mcp.SessionStore.Store"}},

	// Speed: decoding in place.
	{file: "internal/json/json.go", match: "json.Parse(data, v", canaries: []string{decodeCanary}},

	// Speed: the handler queue runs on the reading goroutine.
	{file: "internal/jsonrpc2/conn.go", match: "handedOn bool", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "r.conn.handOnQueue()", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "readOn := time.AfterFunc(readOnAfter", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "func (c *Connection) acceptRequest(ctx context.Context, msg *Request, preempter Preempter) bool", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "return false", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "inline = true", canaries: []string{probeCanary + "handleOnReader"}},
	{file: "internal/jsonrpc2/conn.go", match: "func (c *Connection) handle(req *incomingRequest)", canaries: []string{probeCanary + "handleOnReader"}},

	// Speed: Deliver, a POST's messages handled on the POST's goroutine.
	{file: "internal/jsonrpc2/conn.go", match: "readCtx   context.Context", canaries: []string{apiCanary + "jsonrpc2.Connection.Deliver"}},
	{file: "internal/jsonrpc2/conn.go", match: "func (c *Connection) Deliver(msg Message)", canaries: []string{apiCanary + "jsonrpc2.Connection.Deliver", probeCanary + "handleOnPOST"}},
	{file: "mcp/transport.go", match: "conn := jsonrpc2.NewConnection(", canaries: []string{probeCanary + "handleOnPOST"}},
	{file: "mcp/transport.go", match: "d.setDeliver(conn.Deliver)", canaries: []string{probeCanary + "handleOnPOST"}},
	{file: "mcp/streamable.go", match: "deliver func(jsonrpc.Message)", canaries: []string{probeCanary + "handleOnPOST"}},
	{file: "mcp/streamable.go", match: "func (c *streamableServerConn) publish(", canaries: []string{probeCanary + "handleOnPOST"}},
	{file: "mcp/streamable.go", match: "if !c.publish(msg)", canaries: []string{probeCanary + "handleOnPOST"}},
	{file: "mcp/streamable.go", match: "defer context.AfterFunc(req.Context(), stream.release)()", canaries: []string{probeCanary + "handleOnPOST"}},

	// Speed: a stateless session, fed by Deliver alone, starts no reading goroutine.
	{file: "internal/jsonrpc2/conn.go", match: "unless nil: every message comes by Deliver", canaries: []string{probeCanary + "postStartsNoGoroutine"}},
	{file: "internal/jsonrpc2/conn.go", match: "if cfg.Reader != nil {", canaries: []string{probeCanary + "postStartsNoGoroutine"}},
	{file: "mcp/transport.go", match: "d.deliversOnly()", canaries: []string{probeCanary + "postStartsNoGoroutine"}},
	{file: "mcp/transport.go", match: "deliversOnly() bool", canaries: []string{probeCanary + "postStartsNoGoroutine"}},
	{file: "mcp/streamable.go", match: "func (c *streamableServerConn) deliversOnly() bool", canaries: []string{probeCanary + "postStartsNoGoroutine"}},
	{file: "mcp/streamable.go", match: "t.connection.incoming = make(", canaries: []string{probeCanary + "postStartsNoGoroutine"}},

	// Speed: a quiet call answered with plain JSON (JSONReplyWait).
	{file: "mcp/streamable.go", match: "JSONReplyWait time.Duration", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "h.opts.JSONReplyWait", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "jsonReplyWait time.Duration", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "t.jsonReplyWait", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "undecided bool", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "if s.undecided {", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "s.flushJSONLocked()", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "undecided := c.jsonReplyWait > 0", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "if undecided {", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "stream.undecided, stream.conn = undecided, c", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "c.primeLocked(req.Context(), stream)", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"}},
	{file: "mcp/streamable.go", match: "overrideStatus := extractErrorStatus(ctx, msg)", canaries: []string{apiCanary + "mcp.StreamableHTTPOptions.JSONReplyWait"},
		why: "an undecided stream needs the override status before it decides, so it is found earlier"},

	// Speed: a POST read, decoded and answered with less.
	{file: "mcp/protocol.go", match: "x.marshalText()", canaries: []string{probeCanary + "textResultBytes"}},
	{file: "mcp/protocol.go", match: "func (x *CallToolResult) marshalText()", canaries: []string{probeCanary + "textResultBytes"}},
	{file: "mcp/protocol.go", match: "func (x *CallToolResult) MarshalCompact()", canaries: []string{apiCanary + "mcp.CallToolResult.MarshalCompact"}},
	{file: "internal/jsonrpc2/messages.go", match: "type CompactMarshaler interface", canaries: []string{apiCanary + "jsonrpc2.CompactMarshaler", apiCanary + "jsonrpc2.CompactMarshaler.MarshalCompact"}},
	{file: "internal/jsonrpc2/messages.go", match: "obj.(CompactMarshaler)", canaries: []string{apiCanary + "jsonrpc2.CompactMarshaler"}},
	{file: "internal/json/json.go", match: "func Marshal(", canaries: []string{apiCanary + "json.Marshal"}},
	{file: "internal/json/json.go", match: `stdjson "encoding/json"`, canaries: []string{apiCanary + "json.Marshal"}},
	{file: "mcp/protocol.go", match: "internaljson.Marshal(x.StructuredContent)", canaries: []string{apiCanary + "json.Marshal"}},
	{file: "internal/json/json.go", match: "func IsCompact(", canaries: []string{apiCanary + "json.IsCompact"}},
	{file: "internal/jsonrpc2/messages.go", match: "internaljson.IsCompact(r.Result)", canaries: []string{apiCanary + "json.IsCompact", probeCanary + "postBytes"}},
	{file: "internal/jsonrpc2/messages.go", match: `"strconv"`, canaries: []string{apiCanary + "json.IsCompact"}},
	{file: "internal/jsonrpc2/messages.go", match: "jsonMarshalSized(&wire", canaries: []string{probeCanary + "postBytes"}},
	{file: "internal/jsonrpc2/messages.go", match: "func jsonMarshalSized(", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "func readBody(req *http.Request)", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "transport.connection.read = info.read", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "type readPOST struct", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "read *readPOST", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "body, err := readBody(req)", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "info.held.", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "held struct {", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "c.servePOSTMessages(w, req, r)", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/streamable.go", match: "func (c *streamableServerConn) servePOSTMessages(", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/transport.go", match: "bytes.TrimLeft(data", canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/transport.go", match: `"bytes"`, canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/shared.go", match: `bytes.Contains(rawParams, []byte("_meta"))`, canaries: []string{probeCanary + "postBytes"}},
	{file: "mcp/shared.go", match: `"bytes"`, canaries: []string{probeCanary + "postBytes"}},

	// Behaviour: a request the client cancels gets no response.
	{file: "internal/jsonrpc2/conn.go", match: "c.cancelWith(id, nil)", canaries: []string{cancelledCanary, apiCanary + "jsonrpc2.Connection.CancelByPeer"}},
	{file: "internal/jsonrpc2/conn.go", match: "retirer, _ := c.writer.(Retirer)", canaries: []string{cancelledCanary, apiCanary + "jsonrpc2.Retirer"}},
	{file: "mcp/transport.go", match: "go c.conn.CancelByPeer(id)", canaries: []string{cancelledCanary}},
	{file: "mcp/transport.go", match: "func (t *ioConn) Retire(", canaries: []string{cancelledCanary}},
	{file: "mcp/sse.go", match: "func (s *sseServerConn) Retire(", canaries: []string{cancelledCanary}},
	{file: "mcp/streamable.go", match: "func (c *streamableServerConn) Retire(", canaries: []string{cancelledCanary}},

	// Behaviour: error codes.
	{file: "mcp/shared.go", match: "jsonrpc2.ErrInvalidParams, err", canaries: []string{probeCanary + "badParams"}},
	{file: "mcp/server.go", match: "jsonrpc2.ErrInvalidRequest, methodInitialize", canaries: []string{probeCanary + "secondInitialize"}},
	{file: "mcp/server.go", match: "unknown logging level", canaries: []string{probeCanary + "unknownLogLevel"}},
}

// changedLines are the lines a hunk adds or removes, without their mark.
func changedLines(h hunk) []string {
	var out []string
	for _, l := range h.lines {
		if l != "" && (l[0] == '+' || l[0] == '-') {
			out = append(out, l[1:])
		}
	}
	return out
}

// claims reports whether c claims the hunk h of file.
func (c hunkCanary) claims(file string, h hunk) bool {
	return c.file == file && slices.ContainsFunc(changedLines(h), func(l string) bool { return strings.Contains(l, c.match) })
}

// TestEveryHunkHasACanary fails when a hunk of the patch has no canary, so
// that nothing tells when upstream no longer needs it; when a row of
// hunkCanaries claims no hunk or names no canary there is; and when a hunk
// has no line saying why it is there.
func TestEveryHunkHasACanary(t *testing.T) {
	known := map[string]bool{decodeCanary: true, cancelledCanary: true}
	for _, s := range patchAPI {
		known[apiCanary+s.name] = s.ref != ""
	}
	for _, p := range probes {
		known[probeCanary+p.name] = true
	}
	used := make([]bool, len(hunkCanaries))
	for file, hunks := range readPatch(t) {
		for _, h := range hunks {
			claimed, why := false, hasComment(h)
			for i, c := range hunkCanaries {
				if c.claims(file, h) {
					claimed, used[i], why = true, true, why || c.why != ""
				}
			}
			if !claimed {
				t.Errorf("%s: the hunk at line %d has no canary: add one to hunkCanaries (and a probe or a patchAPI name if none fits)", file, h.start)
			}
			if !why {
				t.Errorf("%s: the hunk at line %d has no line saying why: add a comment to the copy and run scripts/patch-go-sdk.sh diff", file, h.start)
			}
		}
	}
	for i, c := range hunkCanaries {
		if !used[i] {
			t.Errorf("hunkCanaries: %s %q claims no hunk: drop it", c.file, c.match)
		}
		for _, name := range c.canaries {
			if !known[name] {
				t.Errorf("hunkCanaries: %s %q names %s, which is no canary", c.file, c.match, name)
			}
		}
	}
}

// hasComment reports whether a hunk adds a line with a comment.
func hasComment(h hunk) bool {
	return slices.ContainsFunc(h.lines, func(l string) bool { return strings.HasPrefix(l, "+") && strings.Contains(l, "//") })
}
