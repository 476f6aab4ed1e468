package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStdio checks that the anchor answers like an MCP server: requests get
// their result or error, notifications nothing.
func TestStdio(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"Hilton Basel"}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"nope"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"nope"}`,
		`not json`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if code := run(nil, strings.NewReader(in), &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	want := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"echobench","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hilton Basel"}]}}`,
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"unknown tool \"nope\""}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"method not found"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	}, "\n") + "\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("stdio (-want +got):\n%s", diff)
	}
}

// TestHTTP checks the Streamable HTTP side: JSON for a request, 202 for a
// notification.
func TestHTTP(t *testing.T) {
	ts := httptest.NewServer(handler())
	defer ts.Close()
	post := func(body string) (int, string, string) {
		resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return resp.StatusCode, resp.Header.Get("Content-Type"), b.String()
	}
	code, ct, body := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	if code != 200 || ct != "application/json" || body != `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}` {
		t.Errorf("tools/call: %d %s %s", code, ct, body)
	}
	if code, _, _ := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); code != http.StatusAccepted {
		t.Errorf("notification: HTTP %d, want 202", code)
	}
}
