package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// answerBoth has a session answer a call of a tool returning res twice:
// as the go-sdk encodes it, and with encodeResult, and returns both
// responses. It reports whether encodeResult took the result.
func answerBoth(t *testing.T, res *mcp.CallToolResult) (sdk, ours []byte, took bool) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
	d := newDirectCalls()
	defer d.close()
	ss, err := d.sessionlessSession(t.Context(), srv, "2025-11-25")
	if err != nil {
		t.Fatal(err)
	}
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		t.Fatal(err)
	}
	req := &jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"t","arguments":{}}`)}
	want := ss.Answer(t.Context(), req, nil)
	got := ss.Answer(t.Context(), req, func(r mcp.Result) ([]byte, bool) {
		data, ok := encodeResult(r)
		took = ok
		return data, ok
	})
	sdk, err = jsonrpc.EncodeMessage(want)
	if err != nil {
		t.Fatal(err)
	}
	ours, err = jsonrpc.EncodeMessage(got)
	if err != nil {
		t.Fatal(err)
	}
	return sdk, ours, took
}

// TestEncodeResultAsSDK: what encodeResult takes, it encodes to the go-sdk's
// bytes exactly, over the values SQL, HTTP and shell tools return and the
// characters encoding/json escapes; what it does not take, the go-sdk
// encodes.
func TestEncodeResultAsSDK(t *testing.T) {
	text := func(s ...string) []mcp.Content {
		var cs []mcp.Content
		for _, x := range s {
			cs = append(cs, &mcp.TextContent{Text: x})
		}
		return cs
	}
	odd := "<a href=\"x\">&amp;</a> \u2028\u2029 \x00\x1f\x7f \xff\xfe bad UTF-8, \U0001F600 tab\there \\ \"quoted\""
	taken := map[string]*mcp.CallToolResult{
		"text":          {Content: text("id | name\n---+-----\n1  | Hilton Basel\n(1 row)")},
		"empty text":    {Content: text("")},
		"escapes":       {Content: text(odd)},
		"several texts": {Content: text("one", odd, "three")},
		"error":         {Content: text("the backend said no"), IsError: true},
		"structured SQL": {Content: text("table"), StructuredContent: map[string]any{
			"columns": []any{"id", "name", "price"}, "row_count": int64(2), "truncated": false,
			"rows": []any{
				map[string]any{"id": int64(1), "name": "Hilton <Basel>", "price": 1.5, "note": nil},
				map[string]any{"id": int64(math.MaxInt64), "name": odd, "price": 1e21, "note": []byte("bytes")},
			}}},
		"numbers": {Content: text("n"), StructuredContent: map[string]any{
			"small": 1.5e-7, "neg zero": math.Copysign(0, -1), "int": -42, "uint": uint64(math.MaxUint64),
			"float32": float32(0.1), "number": json.Number("12345678901234567890.5"), "big": 123456789.0}},
		"unsorted keys": {Content: text("k"), StructuredContent: map[string]any{"zeta": 1, "Alpha": 2, "é": 3, "a b": 4, "<k>": 5, "": 6}},
		"nested":        {Content: text("n"), StructuredContent: map[string]any{"a": map[string]any{"b": []any{[]any{}, map[string]any{}, true, "x"}}}},
		"typed maps":    {Content: text("t"), StructuredContent: map[string]any{"m": map[string]string{"b": "<", "a": ">"}, "l": []map[string]any{{"x": 1}}}},
		"raw json":      {Content: text("r"), StructuredContent: json.RawMessage(`{ "b" : [1, 2], "a" : "<x>" }`)},
		"list":          {Content: text("l"), StructuredContent: []any{"a", 1}},
	}
	for name, res := range taken {
		t.Run(name, func(t *testing.T) {
			sdk, ours, took := answerBoth(t, res)
			if !took {
				t.Fatal("encodeResult left the result to the go-sdk")
			}
			if string(sdk) != string(ours) {
				t.Fatalf("bytes differ\n go-sdk: %s\n  ours: %s", sdk, ours)
			}
		})
	}
	left := map[string]*mcp.CallToolResult{
		"_meta":        {Meta: mcp.Meta{"k": "v"}, Content: text("x")},
		"annotations":  {Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}},
		"content meta": {Content: []mcp.Content{&mcp.TextContent{Text: "x", Meta: mcp.Meta{"k": "v"}}}},
		"image":        {Content: []mcp.Content{&mcp.TextContent{Text: "x"}, &mcp.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}},
		"no content":   {StructuredContent: map[string]any{"a": 1}},
		// The same error response either way.
		"unencodable": {Content: text("x"), StructuredContent: map[string]any{"f": math.Inf(1)}},
	}
	for name, res := range left {
		t.Run("left/"+name, func(t *testing.T) {
			sdk, ours, took := answerBoth(t, res)
			if took {
				t.Fatalf("encodeResult took it: %s", ours)
			}
			if string(sdk) != string(ours) {
				t.Fatalf("bytes differ\n go-sdk: %s\n  ours: %s", sdk, ours)
			}
		})
	}
}

func BenchmarkEncodeResult(b *testing.B) {
	rows := make([]any, 2)
	for i := range rows {
		rows[i] = map[string]any{"id": int64(i), "name": fmt.Sprint("Hotel ", i), "location": "Basel", "price_tier": "Luxury", "booked": int64(0)}
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "id | name | location | price_tier | booked\n(2 rows)"}},
		StructuredContent: map[string]any{"columns": []any{"id", "name", "location", "price_tier", "booked"}, "rows": rows, "row_count": int64(2), "truncated": false}}
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := encodeResult(res); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(res); err != nil {
				b.Fatal(err)
			}
		}
	})
}
