package transport

import (
	"net/http"
	"strings"
	"testing"
)

func TestJSONField(t *testing.T) {
	t.Parallel()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"_meta":{"io.modelcontextprotocol/protocolVersion":"no"}},` +
		`"_meta" : {"progressToken":1,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	for _, tt := range []struct {
		name string
		in   string
		path []string
		want string // "" for nil
	}{
		{"nested", body, []string{"params", "_meta", metaVersionKey}, `"2026-07-28"`},
		{"a key inside a value is not a member", body, []string{"params", metaVersionKey}, ""},
		{"scalar", body, []string{"id"}, "1"},
		{"object", `{"a":{"b":[1,{"c":"}"}]}}`, []string{"a"}, `{"b":[1,{"c":"}"}]}`},
		{"escaped quote in a string", `{"a":"x\"y","b":2}`, []string{"b"}, "2"},
		{"not an object", `[1,2]`, []string{"a"}, ""},
		{"truncated", `{"params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026`, []string{"params", "_meta"}, ""},
		{"empty", ``, []string{"a"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v := []byte(tt.in)
			for _, k := range tt.path {
				v = jsonField(v, k)
			}
			if string(v) != tt.want || (tt.want == "") != (v == nil) {
				t.Errorf("got %q, want %q", v, tt.want)
			}
		})
	}
}

func TestIsModern(t *testing.T) {
	t.Parallel()
	modernBody := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	initBody := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	for _, tt := range []struct {
		name, method, body string
		header             map[string]string
		want               bool
	}{
		{"modern header", "POST", modernBody, map[string]string{"Mcp-Protocol-Version": "2026-07-28"}, true},
		{"a later version is modern: the stateless handler refuses it", "POST", initBody, map[string]string{"Mcp-Protocol-Version": "v999.0.0"}, true},
		{"modern header wins over a stray session", "POST", modernBody, map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Session-Id": "s"}, true},
		{"a legacy header on a modern body: the stateless handler refuses them", "POST", modernBody, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, true},
		{"legacy header", "POST", initBody, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, false},
		{"session", "POST", modernBody, map[string]string{"Mcp-Session-Id": "s"}, false},
		{"sessionless GET", "GET", "", nil, true},
		{"GET on a session", "GET", "", map[string]string{"Mcp-Session-Id": "s"}, false},
		{"_meta version without the header", "POST", modernBody, nil, true},
		{"discover without the header", "POST", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, nil, true},
		{"initialize", "POST", initBody, nil, false},
		{"initialize whose arguments mention the key", "POST", strings.Replace(initBody, `"c"`, `"io.modelcontextprotocol/protocolVersion"`, 1), nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, _ := http.NewRequest(tt.method, "/mcp", nil)
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			if got := isModern(r, []byte(tt.body), scanFrame([]byte(tt.body))); got != tt.want {
				t.Errorf("isModern = %v, want %v", got, tt.want)
			}
		})
	}
}
