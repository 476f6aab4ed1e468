package transport

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// TestEncodeLineAsSDK: every line stdio writes is byte for byte what the
// go-sdk's EncodeMessage writes, whether it takes the short way or not.
func TestEncodeLineAsSDK(t *testing.T) {
	result := json.RawMessage(`{"content":[{"type":"text","text":"a <b> & \"c\"\n\u2028"}],"structuredContent":{"rows":[1,2.5,null]}}`)
	for _, tt := range []struct {
		name string
		msg  jsonrpc.Message
	}{
		{"int id", &jsonrpc.Response{ID: intID(42), Result: result}},
		{"negative id", &jsonrpc.Response{ID: intID(-7), Result: json.RawMessage(`{}`)}},
		{"string id", &jsonrpc.Response{ID: strID("req-1 <&>"), Result: result}},
		{"empty string id", &jsonrpc.Response{ID: strID(""), Result: result}},
		{"id with a quote", &jsonrpc.Response{ID: strID(`a"b\c`), Result: result}},
		{"id with a control character", &jsonrpc.Response{ID: strID("a\tb\x00"), Result: result}},
		{"id beyond ASCII", &jsonrpc.Response{ID: strID("é\u2028\xff"), Result: result}},
		{"error", &jsonrpc.Response{ID: intID(3), Error: &jsonrpc.Error{Code: -32602, Message: "bad <arg>"}}},
		{"notification", &jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info","data":"x"}`)}},
		{"request", &jsonrpc.Request{ID: intID(9), Method: "sampling/createMessage", Params: json.RawMessage(`{}`)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := jsonrpc.EncodeMessage(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeLine(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want)+"\n", string(got)); diff != "" {
				t.Errorf("encodeLine (-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkEncodeLine measures writing a tools/call response on stdio;
// BenchmarkEncodeLineSDK is the go-sdk's EncodeMessage on the same one.
func BenchmarkEncodeLine(b *testing.B) {
	benchmarkEncode(b, encodeLine)
}

func BenchmarkEncodeLineSDK(b *testing.B) {
	benchmarkEncode(b, jsonrpc.EncodeMessage)
}

func benchmarkEncode(b *testing.B, encode func(jsonrpc.Message) ([]byte, error)) {
	result, err := json.Marshal(map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": "id | name | location\n1 | Hilton Basel | Basel\n3 | Hyatt Regency Basel | Basel\n"}},
		"structuredContent": map[string]any{"row_count": 2, "rows": []any{map[string]any{"id": 1, "name": "Hilton Basel"}, map[string]any{"id": 3, "name": "Hyatt Regency Basel"}}},
	})
	if err != nil {
		b.Fatal(err)
	}
	msg := &jsonrpc.Response{ID: intID(12345), Result: result}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encode(msg); err != nil {
			b.Fatal(err)
		}
	}
}

// intID and strID make request ids, as decoding a request does.
func intID(n int64) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(float64(n))
	return id
}

func strID(s string) jsonrpc.ID {
	id, _ := jsonrpc.MakeID(s)
	return id
}
