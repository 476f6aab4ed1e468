package transport_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The MCP specification (basic/utilities/cancellation): "The receiver of a
// cancellation notification SHOULD [...] Not send a response for the
// cancelled request". These tests cancel a call that blocks in its backend
// and check that no response for it is written, that the session goes on,
// and that nothing waits for the response that will not come.

// TestStdioCancelledCallGetsNoResponse: on stdio the cancelled call is not
// answered, a later request is, and input that ends afterwards is not held
// up for the shutdown timeout waiting for the cancelled call's answer.
func TestStdioCancelledCallGetsNoResponse(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	srv, _ := build(t, handlers.NewRegistry(p.kind()), blockConfig, nil)
	c := startStdio(t, srv)
	defer c.in.Close()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, params := range []string{
		`{"name":"block"}`, // answered by the reader (stdiodirect.go)
		`{"name":"block","_meta":{"progressToken":"p"}}`, // through the go-sdk's connection
	} {
		id := 10 + i
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params))
		select {
		case <-p.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("call %d did not start", id)
		}
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"user"}}`, id))
		waitFor(t, "the backend to see the cancellation", func() bool { return int(p.canceled.Load()) == i+1 })
		c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+id))
		for {
			got := c.next()
			if strings.Contains(got, fmt.Sprintf(`"id":%d,`, id)) || strings.Contains(got, fmt.Sprintf(`"id":%d}`, id)) {
				t.Errorf("the cancelled call %d was answered: %s", id, got)
			}
			if strings.Contains(got, fmt.Sprintf(`"id":%d`, 100+id)) {
				break
			}
		}
	}
	start := time.Now()
	rest := c.end()
	if len(rest) != 0 {
		t.Errorf("output after the last ping: %q", rest)
	}
	// The default shutdown timeout is 10 s: waiting for an answer that
	// the cancellation withheld would take all of it.
	if d := time.Since(start); d > transport.DefaultStdioShutdownTimeout/2 {
		t.Errorf("the server took %v to end after its input did", d)
	}
}

// TestHTTPCancelledCallGetsNoResponse: over stateful HTTP the POST stream of
// the cancelled call ends without its response, and the session goes on.
func TestHTTPCancelledCallGetsNoResponse(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{})
	session := rawSession(t, base)
	for i, tt := range []struct {
		params string
		wait   time.Duration // before cancelling: a call that runs on gets an event stream
	}{
		{`{"name":"block"}`, 0}, // answered by the handler (direct.go)
		{`{"name":"block"}`, 300 * time.Millisecond},
		{`{"name":"block","_meta":{"progressToken":"p"}}`, 0}, // through the go-sdk's session
	} {
		params := tt.params
		id := 10 + i
		type ended struct {
			msgs []map[string]any
			err  error
		}
		stream := make(chan ended, 1)
		go func() {
			resp := rawRequest{session: true, body: fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, id, params)}.
				do(t, testCtx(t), base, session)
			defer resp.Body.Close()
			var e ended
			if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
				e.err = fmt.Errorf("status %d", resp.StatusCode)
			}
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				e.msgs = sseMessages(t, resp.Body)
			}
			stream <- e
		}()
		select {
		case <-p.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("call %d did not start", id)
		}
		time.Sleep(tt.wait)
		resp := rawRequest{session: true, body: fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, id)}.
			do(t, testCtx(t), base, session)
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("notifications/cancelled: status %d", resp.StatusCode)
		}
		select {
		case e := <-stream:
			if e.err != nil {
				t.Errorf("call %d: %v", id, e.err)
			}
			for _, m := range e.msgs {
				if _, isResponse := m["id"]; isResponse {
					t.Errorf("the cancelled call %d was answered: %v", id, m)
				}
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the stream of the cancelled call %d did not end", id)
		}
		if got := int(p.canceled.Load()); got != i+1 {
			t.Errorf("%d calls canceled in the backend, want %d", got, i+1)
		}
		resp = rawRequest{session: true, body: `{"jsonrpc":"2.0","id":99,"method":"ping"}`}.do(t, testCtx(t), base, session)
		msgs := sseMessages(t, resp.Body)
		resp.Body.Close()
		if len(msgs) != 1 || jsonString(msgs[0]["id"]) != "99" {
			t.Errorf("a ping after the cancellation: %v", msgs)
		}
	}
}
