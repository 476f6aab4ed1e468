package transport_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const plainConfig = `
version: 1
tools:
  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "{{ .args.text }}"}]
  - name: chatty
    description: Logs, then answers.
    steps: [{log: {message: working}}]
    content: [{text: done}]
`

// TestHTTPPlainReplies checks which tools/call responses come as one JSON
// object and which as an event stream: a call that sends nothing while it
// runs gets plain JSON, in both modes; a call that may send something
// (steps, progress asked for, logs wanted) gets its stream.
func TestHTTPPlainReplies(t *testing.T) {
	t.Parallel()
	const echo = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	for _, tt := range []struct {
		name      string
		stateless bool
		setLevel  bool
		body      string
		wantType  string
	}{
		{name: "plain call", body: echo, wantType: "application/json"},
		{name: "plain call, stateless", stateless: true, body: echo, wantType: "application/json"},
		{name: "steps", body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"chatty"}}`, wantType: "text/event-stream"},
		{name: "progress asked for", wantType: "text/event-stream",
			body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":1}}}`},
		{name: "logs wanted by the request", stateless: true, wantType: "text/event-stream",
			body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/logLevel":"debug"}}}`},
		{name: "logs wanted by the session", setLevel: true, body: echo, wantType: "text/event-stream"},
		// The keys of _meta count as a JSON decoder reads them, escapes and all.
		{name: "progress asked for, key escaped", wantType: "text/event-stream",
			body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","_meta":{"progress\u0054oken":1}}}`},
		{name: "logs wanted, key escaped", stateless: true, wantType: "text/event-stream",
			body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol\/logLevel":"debug"}}}`},
		{name: "escapes elsewhere", wantType: "application/json",
			body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"\u0065cho","arguments":{"text":"h\u00e9 \/"}}}`},
		{name: "not a call", body: `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, wantType: "text/event-stream"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, base, _ := serve(t, nil, plainConfig, nil, transport.HTTPOptions{Stateless: tt.stateless})
			session := ""
			if !tt.stateless {
				session = rawSession(t, base)
			}
			if tt.setLevel {
				resp := rawRequest{session: true, body: `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"debug"}}`}.do(t, testCtx(t), base, session)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			resp := rawRequest{session: !tt.stateless, body: tt.body}.do(t, testCtx(t), base, session)
			defer resp.Body.Close()
			if got := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || got != tt.wantType {
				t.Fatalf("HTTP %d, Content-Type %q; want 200, %q", resp.StatusCode, got, tt.wantType)
			}
			var msgs []map[string]any
			if tt.wantType == "application/json" {
				var m map[string]any
				if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, m)
			} else {
				msgs = sseMessages(t, resp.Body)
			}
			last := msgs[len(msgs)-1]
			if jsonString(last["id"]) != "5" || last["result"] == nil {
				t.Errorf("last message %v, want the result of request 5", last)
			}
		})
	}
}

// TestHTTPPlainReplyIsTheStreamsResponse checks that the plain JSON reply
// is, byte for byte, the response the event stream would have carried.
func TestHTTPPlainReplyIsTheStreamsResponse(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, plainConfig, nil, transport.HTTPOptions{})
	session := rawSession(t, base)
	body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	plain := rawRequest{session: true, body: body}.do(t, testCtx(t), base, session)
	defer plain.Body.Close()
	got, _ := io.ReadAll(plain.Body)
	// A progress token makes the same call stream; its response is the same.
	streamed := rawRequest{session: true, body: `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":"p"}}}`}.do(t, testCtx(t), base, session)
	defer streamed.Body.Close()
	msgs := sseMessages(t, streamed.Body)
	want, _ := json.Marshal(msgs[len(msgs)-1])
	var gotMsg map[string]any
	if err := json.Unmarshal(got, &gotMsg); err != nil {
		t.Fatalf("plain reply %q: %v", got, err)
	}
	gotNorm, _ := json.Marshal(gotMsg)
	if diff := cmp.Diff(string(want), string(gotNorm)); diff != "" {
		t.Errorf("plain reply (-streamed +plain):\n%s", diff)
	}
}
