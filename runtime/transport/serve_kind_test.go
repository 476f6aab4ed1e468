package transport

import "testing"

func TestKind(t *testing.T) {
	for _, tt := range []struct {
		line      string
		req, resp int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 1, 0},
		{`{"method":"ping","jsonrpc":"2.0","id":"a"}`, 1, 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0, 0},
		{`{"jsonrpc":"2.0","id":null,"method":"x"}`, 0, 0},
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"{\"id\":1,\"method\":\"x\"}"}]}}`, 0, 1},
		{`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"bad \"method\""}}`, 0, 1},
		{`{"jsonrpc":"2.0","params":{"id":1,"method":"nested"},"method":"notifications/x"}`, 0, 0},
		{`{ "id" : 3 , "method" : "a" }`, 1, 0},
		{`not json`, 0, 0},
		{``, 0, 0},
	} {
		req, resp := kind([]byte(tt.line))
		if req != tt.req || resp != tt.resp {
			t.Errorf("kind(%s) = %d, %d; want %d, %d", tt.line, req, resp, tt.req, tt.resp)
		}
	}
}

func BenchmarkKind(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"id | name | email\n1 | Ada | ada@example.com"}],"structuredContent":{"columns":["id","name"],"rows":[{"id":1,"name":"Ada"}]}}}`)
	for b.Loop() {
		kind(line)
	}
}
