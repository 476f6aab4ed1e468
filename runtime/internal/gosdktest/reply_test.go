package gosdktest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// The patch's fourth part makes the SDK's own way to a response short: a
// call that sends nothing before its response is answered with one JSON
// object (StreamableHTTPOptions.JSONReplyWait), and a tool result is
// encoded in one pass.

// TestTextResultEncodedAsBefore: the one-pass encoding of a text result
// gives the bytes of the general way; what it does not handle goes the
// general way.
func TestTextResultEncodedAsBefore(t *testing.T) {
	for _, tc := range []struct {
		res  *mcp.CallToolResult
		want string
	}{
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a<b & \"c\"\n\u2028é"}}},
			`{"content":[{"type":"text","text":"a\u003cb \u0026 \"c\"\n\u2028é"}]}`},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}, &mcp.TextContent{}},
			StructuredContent: map[string]any{"z": 1, "a": "<"}, IsError: true},
			`{"content":[{"type":"text","text":"x"},{"type":"text","text":""}],"structuredContent":{"a":"\u003c","z":1},"isError":true}`},
		{&mcp.CallToolResult{}, `{"content":null}`},
		{&mcp.CallToolResult{Content: []mcp.Content{}}, `{"content":[]}`},
		{&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}},
			`{"content":[{"type":"text","text":"x","annotations":{"priority":1}}]}`},
		{&mcp.CallToolResult{Meta: mcp.Meta{"k": "v"}, Content: []mcp.Content{&mcp.TextContent{Text: "x"}}},
			`{"_meta":{"k":"v"},"content":[{"type":"text","text":"x"}]}`},
	} {
		got, err := json.Marshal(tc.res)
		if err != nil || string(got) != tc.want {
			t.Errorf("got %s (%v)\nwant %s", got, err, tc.want)
		}
		// A reply carries MarshalCompact's bytes as they are: they must be these.
		if got, ok := tc.res.MarshalCompact(); ok && string(got) != tc.want {
			t.Errorf("MarshalCompact: got %s\nwant %s", got, tc.want)
		}
	}
	if _, ok := (*mcp.CallToolResult)(nil).MarshalCompact(); ok {
		t.Error("a nil result claims a compact encoding")
	}
}

// TestResponseOnTheWire: a response goes out as its result was encoded,
// in its envelope, the id written as JSON writes it (escaped or not).
func TestResponseOnTheWire(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "<ok>"}}}, nil
		})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	lines := bufio.NewScanner(outR)
	send := func(msg string) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	lines.Scan()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const result = `"result":{"content":[{"type":"text","text":"\u003cok\u003e"}]}}`
	for _, id := range []string{`7`, `"s-1"`, `"q\"<\u00e9"`} {
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)
		lines.Scan()
		want := `{"jsonrpc":"2.0","id":` + strings.Replace(id, `\u00e9`, "é", 1) + `,` + result
		if got := lines.Text(); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

// postCall posts one tools/call of the tool "echo" to url and returns the
// response's content type and body.
func postCall(t *testing.T, url, args string) (string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":`+args+`}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.Header.Get("Content-Type"), string(body)
}

// TestQuietCallAnsweredWithJSON: with JSONReplyWait, a call that sends
// nothing else is answered with one JSON object; one that logs first gets
// an event stream with its log and its response; one that runs past the
// wait gets its event stream, priming event first, when the wait is over.
func TestQuietCallAnsweredWithJSON(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	type args struct {
		Log  bool `json:"log,omitempty"`
		Slow bool `json:"slow,omitempty"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		if in.Log {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: "p", Message: "working"})
		}
		if in.Slow {
			time.Sleep(300 * time.Millisecond)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, EventStore: mcp.NewMemoryEventStore(nil), JSONReplyWait: 100 * time.Millisecond})
	ts := httptest.NewServer(h)
	defer ts.Close()

	ct, body := postCall(t, ts.URL, `{}`)
	if ct != "application/json" || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]`) {
		t.Errorf("a quiet call: %s\n%s", ct, body)
	}
	ct, body = postCall(t, ts.URL, `{"log":true}`)
	if ct != "text/event-stream" || !strings.Contains(body, "notifications/progress") || !strings.Contains(body, `"result":{"content"`) {
		t.Errorf("a call that sends a notification: %s\n%s", ct, body)
	}
	ct, body = postCall(t, ts.URL, `{"slow":true}`)
	prime, _, _ := strings.Cut(body, "\n\n")
	if ct != "text/event-stream" || !strings.HasPrefix(prime, "event: prime") || !strings.Contains(body, `"result":{"content"`) {
		t.Errorf("a slow call: %s\n%s", ct, body)
	}
}

// encodedAsEncodingJSON is how encoding/json, the SDK's general way, writes
// a response with id 7 and result raw: the result checked and compacted.
func encodedAsEncodingJSON(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(struct {
		Version string          `json:"jsonrpc"`
		ID      int64           `json:"id"`
		Result  json.RawMessage `json:"result,omitempty"`
	}{"2.0", 7, raw})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// checkResponseEncoding fails unless EncodeMessage writes a response
// carrying raw as encoding/json does, or fails where it fails: the copy of
// a compact result must change nothing.
func checkResponseEncoding(t *testing.T, raw []byte) {
	t.Helper()
	id, _ := jsonrpc.MakeID(float64(7))
	got, gotErr := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: raw})
	want, wantErr := encodedAsEncodingJSON(raw)
	if (gotErr != nil) != (wantErr != nil) || gotErr == nil && !bytes.Equal(got, want) {
		t.Errorf("result %.200q:\ngot  %.200s (%v)\nwant %.200s (%v)", raw, got, gotErr, want, wantErr)
	}
}

var responseResults = []string{
	`{"content":[{"type":"text","text":"a\"b\\\\"}],"isError":true}`,
	`{"a":"\\\\\\"","b":[1,2.5e3,-0,true,false,null],"c":{}}`,
	`"é\u2028<>&"`, `null`, `0`, `[]`, `""`, `"\\"`,
	`{"a": 1}`, " {\"a\":1}", "{\"a\":1}\n", `{"a":"x y"}`, "[1,\t2]",
	`{"a":1`, `{"a":1}}`, `{"a":1}{}`, `nul`, `01`, `1.`, `"\x"`, "\"a\x01\"", "\"\xff\"", `{a:1}`, ``,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

// TestResponseEncodedAsEncodingJSON: a response whose result is compact is
// written in one pass, byte for byte as before; any other result goes the
// general way, its errors included.
func TestResponseEncodedAsEncodingJSON(t *testing.T) {
	for _, raw := range responseResults {
		checkResponseEncoding(t, []byte(raw))
	}
}

func FuzzResponseEncoding(f *testing.F) {
	for _, raw := range responseResults {
		f.Add([]byte(raw))
	}
	f.Fuzz(checkResponseEncoding)
}

// checkStructuredEncoding fails unless a text result with sc as its
// structured content encodes, in one pass, to the bytes encoding/json gives
// it, or is left to the general way where encoding/json fails.
func checkStructuredEncoding(t *testing.T, sc any) {
	t.Helper()
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "rows"}}, StructuredContent: sc}
	got, ok := res.MarshalCompact()
	want, err := json.Marshal(sc)
	if err != nil {
		if ok {
			t.Errorf("%#.200v: encoded as %.200s, where encoding/json fails (%v)", sc, got, err)
		}
		return
	}
	w := `{"content":[{"type":"text","text":"rows"}],"structuredContent":` + string(want) + `}`
	if sc == nil { // omitted, as the general way omits it
		w = `{"content":[{"type":"text","text":"rows"}]}`
	}
	if !ok || string(got) != w {
		t.Errorf("%#.200v:\ngot  %.200s (%v)\nwant %.200s", sc, got, ok, w)
	}
}

// structuredValues are values a handler puts in a result's structured
// content: decoded JSON, rows of a query, and strings no JSON decodes to.
func structuredValues() []any {
	return []any{
		map[string]any{"columns": []any{"id", "name"}, "rows": []any{map[string]any{"id": int64(1), "name": "Hilton <Basel> & co"}},
			"row_count": int64(1), "truncated": false},
		map[string]any{"f": []any{0.0, -0.0, 1e-7, 1e21, 123456789.125, 1e20, float32(0.1), 3.0}, "n": nil, "b": []byte("\x00\xff"),
			"t": time.Date(2026, 11, 28, 12, 0, 0, 5, time.UTC), "num": json.Number("12.50"), "raw": json.RawMessage(`{ "a" : [1, 2] }`)},
		map[string]any{"bad\xffkey": "bad\xfevalue", "\u2028": "\u2029", "<": ">&", "": []any{}, "e": map[string]any{}},
		map[string]int64{"z": 1, "a": -1}, []map[string]any{{"k": uint8(7)}}, "just a string", nil,
		map[string]any{"nan": math.NaN()}, map[string]any{"inf": math.Inf(-1)}, map[string]any{"ch": make(chan int)},
		map[string]any{"bad": json.Number("1x")}, map[string]any{"bad": json.RawMessage(`{`)},
	}
}

// TestStructuredEncodedAsEncodingJSON: structured content is encoded as
// encoding/json encodes it, through segmentio's faster encoder.
func TestStructuredEncodedAsEncodingJSON(t *testing.T) {
	for _, sc := range structuredValues() {
		checkStructuredEncoding(t, sc)
	}
}

// FuzzStructuredEncoding decodes the input as JSON (numbers as float64, and
// again as json.Number) and checks the encoding of what it gives.
func FuzzStructuredEncoding(f *testing.F) {
	for _, sc := range structuredValues() {
		if b, err := json.Marshal(sc); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"a":"\ud800","b":[1e308,-1e-308,5e-324]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		checkStructuredEncoding(t, v)
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		if d.Decode(&v) == nil {
			checkStructuredEncoding(t, v)
		}
		checkStructuredEncoding(t, map[string]any{string(data): string(data)})
	})
}
