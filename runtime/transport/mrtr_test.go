package transport_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// askConfig asks the user, the model and the client's roots, then runs a
// command that leaves a trace of each run.
const askConfig = `
version: 1
tools:
  - name: book
    description: Books a room after asking.
    args: [{name: room, required: true}]
    confirm: "Book {{ .args.room }}?"
    steps:
      - roots: {as: where}
      - elicit:
          message: "Name for {{ .args.room }}?"
          schema: {type: object, properties: {name: {type: string}}, required: [name]}
          as: who
      - sample: {prompt: "Greet {{ .steps.who.content.name }}", max_tokens: 20, as: greeting}
    handler:
      kind: shell
      script: echo booked >> calls.log
    content: [{text: "{{ .steps.greeting.text }} {{ .steps.who.content.name }} in {{ index .steps.where.paths 0 }}"}]
  - name: needs_model
    description: Needs sampling.
    requires: [sampling]
    content: [{text: ok}]
  - name: regional
    description: Mirrors region in a header.
    args: [{name: region, header: Region}]
    content: [{text: "{{ .args.region }}"}]
prompts:
  - name: greet
    description: Asks for context first.
    steps:
      - elicit: {message: "Context?", schema: {type: object, properties: {context: {type: string}}}, as: ctx}
    messages: [{text: "context: {{ .steps.ctx.content.context }}"}]
`

// askingClient answers every question: it confirms, gives a name, lets the
// model greet, and has one root. The go-sdk client answers the questions of
// one round concurrently.
func askingClient(asked *[]string) *mcp.ClientOptions {
	var mu sync.Mutex
	note := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		*asked = append(*asked, s)
	}
	return &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			note("elicit: " + req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "context": "tests"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			note("sample: " + req.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "Hi"}}, nil
		},
	}
}

// TestInputRequestsBothEras: one YAML tool asks a 2025-11-25 client by
// server-to-client requests and a 2026-07-28 client by input requests in
// two rounds (the sample needs the elicited name); both get the same
// answer, and the handler runs once per call.
func TestInputRequestsBothEras(t *testing.T) {
	t.Parallel()
	_, base, dir := serve(t, builtin.Registry(), askConfig, nil, transport.HTTPOptions{})
	ctx := testCtx(t)
	for i, version := range []string{"2025-11-25", "2026-07-28"} {
		var asked []string
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, askingClient(&asked))
		c.AddRoots(&mcp.Root{URI: "file:///srv/rooms", Name: "rooms"})
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + transport.MCPPath, HTTPClient: testClient},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res := callTool(t, ctx, cs, "book", map[string]any{"room": "blue"})
		if got, want := res.Content[0].(*mcp.TextContent).Text, "Hi Ada in /srv/rooms"; got != want || res.IsError {
			t.Errorf("%s: %q (isError %v), want %q", version, got, res.IsError, want)
		}
		want := []string{"elicit: Book blue?", "elicit: Name for blue?", "sample: Greet Ada"}
		if diff := cmp.Diff(want, asked, sortStrings); diff != "" {
			t.Errorf("%s: questions (-want +got):\n%s", version, diff)
		}
		log, _ := os.ReadFile(filepath.Join(dir, "calls.log"))
		if n := strings.Count(string(log), "booked"); n != i+1 {
			t.Errorf("%s: the handler ran %d times in all, want %d", version, n, i+1)
		}
		pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"})
		if err != nil || pr.Messages[0].Content.(*mcp.TextContent).Text != "context: tests" {
			t.Errorf("%s: prompt: %v %v", version, pr, err)
		}
	}
}

var sortStrings = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// modernCall sends one 2026-07-28 request and returns the HTTP status and
// the JSON-RPC response.
func modernCall(t *testing.T, base, method string, params map[string]any, caps string, header map[string]string) (int, map[string]any) {
	t.Helper()
	var meta map[string]any
	_ = json.Unmarshal([]byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":`+caps+`}`), &meta)
	params["_meta"] = meta
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	h := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name, ok := params["name"].(string); ok {
		h["Mcp-Name"] = name
	}
	for k, v := range header {
		h[k] = v
	}
	resp := rawRequest{body: string(body), header: h}.do(t, testCtx(t), base, "")
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if i := strings.Index(string(b), "data: {"); i >= 0 { // an event stream: its last event
		b = []byte(strings.TrimSpace(string(b[strings.LastIndex(string(b), "data: {")+len("data: "):])))
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: status %d, body %q: %v", method, resp.StatusCode, b, err)
	}
	return resp.StatusCode, out
}

const allCaps = `{"elicitation":{},"sampling":{},"roots":{}}`

func errorCode(reply map[string]any) float64 {
	e, _ := reply["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

// TestRequestStateTamperAndReplay: a 2026-07-28 retry must bring back the
// request state exactly as issued, for the same tool and arguments, and a
// state that completed its call cannot complete it again.
func TestRequestStateTamperAndReplay(t *testing.T) {
	t.Parallel()
	_, base, dir := serve(t, builtin.Registry(), askConfig, nil, transport.HTTPOptions{})
	args := map[string]any{"room": "blue"}
	roots := map[string]any{"roots": []any{map[string]any{"uri": "file:///srv"}}}
	accept := map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}
	round := func(state string, args map[string]any, answers map[string]any) (int, map[string]any) {
		p := map[string]any{"name": "book", "arguments": args, "inputResponses": answers}
		if state != "" {
			p["requestState"] = state
		}
		return modernCall(t, base, "tools/call", p, allCaps, nil)
	}
	_, r1 := round("", args, nil)
	res1, _ := r1["result"].(map[string]any)
	if res1["resultType"] != "input_required" {
		t.Fatalf("round 1: %v", r1)
	}
	keys := []string{}
	for k := range res1["inputRequests"].(map[string]any) {
		keys = append(keys, k)
	}
	if diff := cmp.Diff([]string{"confirm", "where", "who"}, keys, sortStrings); diff != "" {
		t.Errorf("round 1 asks (-want +got):\n%s", diff)
	}
	s1 := res1["requestState"].(string)
	answers := map[string]any{"confirm": map[string]any{"action": "accept"}, "where": roots, "who": accept}
	_, r2 := round(s1, args, answers)
	res2, _ := r2["result"].(map[string]any)
	s2, _ := res2["requestState"].(string)
	if _, ok := res2["inputRequests"].(map[string]any)["greeting"]; !ok || s2 == "" {
		t.Fatalf("round 2 should ask for the greeting: %v", r2)
	}
	greeting := map[string]any{"greeting": map[string]any{"role": "assistant", "model": "m", "content": map[string]any{"type": "text", "text": "Hi"}}}
	for _, tt := range []struct {
		name  string
		state string
		args  map[string]any
	}{
		{"tampered", s2[:len(s2)-2] + "AA", args},
		{"appended", s2 + "-TAMPERED", args},
		{"other arguments", s2, map[string]any{"room": "red"}},
		{"not a state", "garbage", args},
	} {
		if status, r := round(tt.state, tt.args, greeting); status != http.StatusBadRequest || errorCode(r) != -32602 {
			t.Errorf("%s state: status %d, reply %v; want 400 and -32602", tt.name, status, r)
		}
	}
	_, r3 := round(s2, args, greeting)
	if res3, _ := r3["result"].(map[string]any); res3["resultType"] != "complete" || res3["isError"] == true {
		t.Fatalf("round 3: %v", r3)
	}
	for _, st := range []string{s2, s1} { // every state of a completed call is spent
		if status, r := round(st, args, greeting); status != http.StatusBadRequest || errorCode(r) != -32602 {
			t.Errorf("replayed state: status %d, reply %v; want 400 and -32602", status, r)
		}
	}
	if log, _ := os.ReadFile(filepath.Join(dir, "calls.log")); strings.Count(string(log), "booked") != 1 {
		t.Errorf("the handler ran %d times, want once", strings.Count(string(log), "booked"))
	}
}

// TestInputRequestsMalformedAnswer: an answer of the wrong kind is a
// protocol error; a missing one is asked again.
func TestInputRequestsMalformedAnswer(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, builtin.Registry(), askConfig, nil, transport.HTTPOptions{})
	p := map[string]any{"name": "book", "arguments": map[string]any{"room": "b"},
		"inputResponses": map[string]any{"confirm": map[string]any{"roots": []any{}}}}
	if status, r := modernCall(t, base, "tools/call", p, allCaps, nil); status != 400 || errorCode(r) != -32602 {
		t.Errorf("wrong kind of answer: status %d, %v", status, r)
	}
	p["inputResponses"] = map[string]any{"unknown": map[string]any{"action": "accept"}}
	_, r := modernCall(t, base, "tools/call", p, allCaps, nil)
	if res, _ := r["result"].(map[string]any); res["resultType"] != "input_required" {
		t.Errorf("missing answer: %v, want the questions again", r)
	}
}

// TestMissingClientCapability: a 2026-07-28 call of a tool that needs a
// capability the request did not declare gets -32021 and HTTP 400, naming
// the capability as a ClientCapabilities object.
func TestMissingClientCapability(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, builtin.Registry(), askConfig, nil, transport.HTTPOptions{})
	for _, tt := range []struct{ tool, caps, want string }{
		{"needs_model", `{}`, `{"sampling":{}}`},
		{"book", `{"sampling":{}}`, `{"elicitation":{},"roots":{}}`},
	} {
		status, r := modernCall(t, base, "tools/call", map[string]any{"name": tt.tool, "arguments": map[string]any{"room": "x"}}, tt.caps, nil)
		data, _ := json.Marshal(r["error"].(map[string]any)["data"])
		if status != 400 || errorCode(r) != -32021 || string(data) != `{"requiredCapabilities":`+tt.want+`}` {
			t.Errorf("%s: status %d, reply %v, data %s; want 400, -32021, %s", tt.tool, status, r, data, tt.want)
		}
	}
	if status, r := modernCall(t, base, "tools/call", map[string]any{"name": "needs_model"}, `{"sampling":{}}`, nil); status != 200 || r["result"] == nil {
		t.Errorf("declared: status %d, %v", status, r)
	}
}

// TestParamHeaderMismatch: Mcp-Param-* headers of mcpgen's tools are
// validated as the go-sdk validates its own.
func TestParamHeaderMismatch(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, builtin.Registry(), askConfig, nil, transport.HTTPOptions{})
	for _, tt := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"matching", map[string]string{"Mcp-Param-Region": "eu-west"}, 200},
		{"Base64", map[string]string{"Mcp-Param-Region": "=?base64?ZXUtd2VzdA==?="}, 200},
		{"mismatch", map[string]string{"Mcp-Param-Region": "us-east"}, 400},
		{"missing", nil, 400},
		{"bad Base64", map[string]string{"Mcp-Param-Region": "=?base64?ZXUtd2VzdA?="}, 400},
	} {
		status, r := modernCall(t, base, "tools/call", map[string]any{"name": "regional", "arguments": map[string]any{"region": "eu-west"}}, `{}`, tt.header)
		if status != tt.want || (tt.want == 400 && errorCode(r) != -32020) {
			t.Errorf("%s: status %d, %v; want %d", tt.name, status, r, tt.want)
		}
	}
}
