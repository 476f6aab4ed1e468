package transport

import (
	"encoding/json"
	"testing"
)

// TestPostBodyItem: the item a request acts on, as the scan tells the auth
// guard, and the bodies where the scan must not be trusted because a JSON
// decoder may read them otherwise.
func TestPostBodyItem(t *testing.T) {
	const unsure = "?"
	for _, tt := range []struct{ name, body, method, item string }{
		{"tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"name":"admin"}}}`, "tools/call", "echo"},
		{"name after arguments", `{"params":{"arguments":{"a":[{"name":"admin"}],"uri":"x"},"name":"echo"},"method":"tools/call","id":1}`, "tools/call", "echo"},
		{"prompt", `{"method":"prompts/get","params":{"name":"p"}}`, "prompts/get", "p"},
		{"resource", `{"method":"resources/read","params":{"uri":"file:///a b","name":"x"}}`, "resources/read", "file:///a b"},
		{"no name", `{"method":"tools/call","params":{}}`, "tools/call", ""},
		{"params not an object", `{"method":"tools/call","params":[{"name":"admin"}]}`, "tools/call", ""},
		{"name outside params", `{"method":"tools/call","x":{"name":"admin"},"name":"admin"}`, "tools/call", ""},
		{"another method", `{"method":"tools/list","params":{"name":"admin"}}`, "", ""},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{"name":"admin"}}`, "", ""},
		{"name twice", `{"method":"tools/call","params":{"name":"echo","name":"admin"}}`, unsure, ""},
		{"params twice", `{"method":"tools/call","params":{"name":"echo"},"params":{"name":"admin"}}`, unsure, ""},
		{"method twice", `{"method":"ping","method":"tools/call","params":{"name":"admin"}}`, unsure, ""},
		{"key in another case", `{"method":"tools/call","params":{"Name":"admin"}}`, unsure, ""},
		{"method key in another case", `{"Method":"tools/call","params":{"name":"admin"}}`, unsure, ""},
		{"key folding to params", "{\"method\":\"tools/call\",\"param\u017f\":{\"name\":\"admin\"}}", unsure, ""},
		{"escaped key", `{"method":"tools/call","params":{"n\u0061me":"admin"}}`, unsure, ""},
		{"escaped name", `{"method":"tools/call","params":{"name":"adm\u0069n"}}`, unsure, ""},
		{"escaped method", `{"method":"tools\/call","params":{"name":"admin"}}`, unsure, ""},
		{"name not a string", `{"method":"tools/call","params":{"name":12}}`, unsure, ""},
		{"name not UTF-8", "{\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\"}}", unsure, ""},
		{"batch", `[{"method":"tools/call","params":{"name":"admin"}}]`, unsure, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := &postBody{fi: scanFrame([]byte(tt.body))}
			method, item, ok := b.Item()
			if tt.method == unsure {
				if ok {
					t.Errorf("Item() = %q, %q, sure; want unsure", method, item)
				}
				return
			}
			if !ok || method != tt.method || item != tt.item {
				t.Errorf("Item() = %q, %q, %v; want %q, %q, true", method, item, ok, tt.method, tt.item)
			}
		})
	}
}

// FuzzPostBodyItem: whenever the scan is sure of what a request acts on, a
// JSON decoder reads the same from it (or refuses the body, which the
// go-sdk then refuses too).
func FuzzPostBodyItem(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}`,
		`{"method":"resources/read","params":{"uri":"notes://a"}}`, `{"method":"prompts/get","params":{"name":"p"}}`,
		`{"method":"tools/call","params":{"Name":"admin"}}`, `[{"method":"tools/call"}]`, `{"id":1,"result":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		b := &postBody{fi: scanFrame(body)}
		method, item, ok := b.Item()
		if !ok {
			return
		}
		var req struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
				URI  string `json:"uri"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &req) != nil {
			return
		}
		want := ""
		switch req.Method {
		case "tools/call", "prompts/get":
			want = req.Params.Name
		case "resources/read":
			want = req.Params.URI
		default:
			req.Method = ""
		}
		if method != req.Method || item != want {
			t.Fatalf("scan: %q %q; decoder: %q %q", method, item, req.Method, want)
		}
	})
}
