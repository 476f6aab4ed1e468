package transport_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// TestInvalidParamsAnswered: an initialize whose params do not decode, a
// logging/setLevel with a level the spec does not define, and a
// completion/complete for a prompt or template the server does not have
// are answered -32602 (invalid params), on stdio and over HTTP. (They were
// answered with code 0 over HTTP, -32603 on stdio, and successes.)
func TestInvalidParamsAnswered(t *testing.T) {
	srv, _ := build(t, nil, robustConfig, nil)
	c := startStdio(t, srv)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":"bad"}`)
	wantError(t, c.next(), "1", jsonrpc.CodeInvalidParams)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":5}}`)
	wantError(t, c.next(), "2", jsonrpc.CodeInvalidParams)
	c.send(initBody)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`)
	wantError(t, c.next(), "3", jsonrpc.CodeInvalidParams)
	c.send(`{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"warning"}}`)
	if l := c.next(); l != `{"jsonrpc":"2.0","id":4,"result":{}}` {
		t.Errorf("a level the spec defines: %s", l)
	}
	c.send(`{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"who","value":"a"}}}`)
	wantError(t, c.next(), "5", jsonrpc.CodeInvalidParams)
	c.send(`{"jsonrpc":"2.0","id":6,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"nope://{x}"},"argument":{"name":"x","value":"a"}}}`)
	wantError(t, c.next(), "6", jsonrpc.CodeInvalidParams)
	c.send(`{"jsonrpc":"2.0","id":7,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"hello"},"argument":{"name":"who","value":"a"}}}`)
	if l := c.next(); !strings.Contains(l, `"values":["ada"]`) {
		t.Errorf("completing a prompt that exists: %s", l)
	}
	c.end()

	_, base, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{})
	for _, body := range []string{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":"bad"}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`} {
		resp := rawRequest{body: body}.do(t, testCtx(t), base, "")
		if _, code := errorOf(t, resp); code != jsonrpc.CodeInvalidParams {
			t.Errorf("HTTP %s: code %d, want %d", body, code, jsonrpc.CodeInvalidParams)
		}
	}
	session := rawSession(t, base)
	resp := rawRequest{body: `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`, session: true}.do(t, testCtx(t), base, session)
	if _, code := errorOf(t, resp); code != jsonrpc.CodeInvalidParams {
		t.Errorf("HTTP setLevel loud: code %d", code)
	}
}

// TestVersionHeaderAndBodyDisagree: a request whose Mcp-Protocol-Version
// header and params._meta version differ is refused -32020 with 400,
// whichever of the two is the older (an older header was answered "missing
// Mcp-Session-Id" in plain text).
func TestVersionHeaderAndBodyDisagree(t *testing.T) {
	_, base, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{})
	body := func(v string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v +
			`","io.modelcontextprotocol/clientCapabilities":{}}}}`
	}
	for _, tt := range []struct{ header, meta string }{{"2025-11-25", "2026-07-28"}, {"2026-07-28", "2025-11-25"}} {
		resp := rawRequest{body: body(tt.meta), header: map[string]string{"Mcp-Protocol-Version": tt.header, "Mcp-Method": "tools/list"}}.do(t, testCtx(t), base, "")
		if _, code := errorOf(t, resp); code != -32020 || resp.StatusCode != 400 {
			t.Errorf("header %s, _meta %s: status %d, code %d; want 400, -32020", tt.header, tt.meta, resp.StatusCode, code)
		}
	}
}
