package runtime

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

const sampleToolsConfig = `version: 1
tools:
  - name: lookup
    description: Look up a city's population.
    args: [{name: city, required: true}]
    handler: {kind: echo, result: "${{ args.city == 'Oslo' ? '709000' : 'unknown' }}"}
  - name: secret
    description: Not offered.
    content: [{text: s}]
  - name: ask
    description: Ask the model, which may look things up.
    args: [{name: question, required: true}]
    steps:
      - sample:
          prompt: "{{ .args.question }}"
          tools: [lookup]
          max_turns: 2
          as: answer
    content: [{text: "{{ .steps.answer.text }} ({{ .steps.answer.tool_calls }} tool calls)"}]
`

// TestSampleWithTools plays the client's model: it calls an offered tool,
// a tool that was not offered and the offered one with bad arguments;
// mcpgen answers each with its result, and after max_turns the model must
// answer without tools. The same with a session (2025-11-25) and with
// input requests, one round per turn (2026-07-28).
func TestSampleWithTools(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) { testSampleWithTools(t, version, Selection{}) })
	}
	// served alone (serve --tools ask), the tool still offers the tool it
	// names while sampling
	t.Run("selected", func(t *testing.T) { testSampleWithTools(t, "2025-11-25", Selection{Tools: []string{"ask"}}) })
}

func testSampleWithTools(t *testing.T, version string, sel Selection) {
	srv := mustCompile(t, sampleToolsConfig, nil)
	if err := srv.Select(sel); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []*mcp.CreateMessageWithToolsParams
	use := func(id, name string, in map[string]any) mcp.Content {
		return &mcp.ToolUseContent{ID: id, Name: name, Input: in}
	}
	turns := [][]mcp.Content{
		{use("u1", "lookup", map[string]any{"city": "Oslo"}), use("u2", "secret", nil)},
		{use("u3", "lookup", map[string]any{"city": 3})},
		{&mcp.TextContent{Text: "Oslo has 709000 people."}},
	}
	cs := session(t, srv, version, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}}},
		CreateMessageWithToolsHandler: func(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, req.Params)
			return &mcp.CreateMessageWithToolsResult{Model: "m", Role: "assistant", Content: turns[len(seen)-1], StopReason: "toolUse"}, nil
		},
	}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "How many live in Oslo?"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(res.Content); res.IsError || got != "Oslo has 709000 people. (3 tool calls)" {
		t.Fatalf("result %q (isError %v)", got, res.IsError)
	}
	if len(seen) != 3 {
		t.Fatalf("%d requests to the model, want 3", len(seen))
	}
	var offered, choices []string
	for _, p := range seen {
		choices = append(choices, p.ToolChoice.Mode)
	}
	for _, tl := range seen[0].Tools {
		offered = append(offered, tl.Name)
	}
	if d := cmp.Diff([]string{"lookup"}, offered); d != "" {
		t.Errorf("tools offered (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"auto", "auto", "none"}, choices); d != "" {
		t.Errorf("tool choices (-want +got):\n%s", d)
	}
	// what the model was told after each of its turns
	results := func(p *mcp.CreateMessageWithToolsParams) []string {
		var out []string
		for _, c := range p.Messages[len(p.Messages)-1].Content {
			r := c.(*mcp.ToolResultContent)
			out = append(out, r.ToolUseID+" "+map[bool]string{true: "error", false: "ok"}[r.IsError]+": "+textOf(r.Content))
		}
		return out
	}
	got := append(results(seen[1]), results(seen[2])...)
	want := []string{"u1 ok: 709000", `u2 error: tool "secret" was not offered; call one of lookup`,
		"u3 error: invalid arguments: at /city: got number, want string"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tool results (-want +got):\n%s", d)
	}
	if n := len(seen[2].Messages); n != 5 {
		t.Errorf("the last request carries %d messages, want 5 (question, 2 turns of use and result)", n)
	}
}

// TestSampleWithToolsUndeclared: a client that samples but did not declare
// tools support gets an error result (2025-11-25) or the error -32021
// naming sampling.tools (2026-07-28), and its model is never asked.
func TestSampleWithToolsUndeclared(t *testing.T) {
	asked := 0
	cs := session(t, mustCompile(t, sampleToolsConfig, nil), "2026-07-28", &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked++
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "x"}}, nil
		},
	}, nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "q"}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeMissingRequiredClientCapabilities || string(rpc.Data) != `{"requiredCapabilities":{"sampling":{"tools":{}}}}` || asked != 0 {
		t.Errorf("2026-07-28: error %v (data %s), model asked %d times; want -32021 naming sampling.tools", err, rpcData(rpc), asked)
	}
	cs = session(t, mustCompile(t, sampleToolsConfig, nil), "2025-11-25", &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked++
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "x"}}, nil
		},
	}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"question": "q"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := textOf(res.Content); !res.IsError || !strings.Contains(text, errNoSamplingTools.Error()) || asked != 0 {
		t.Errorf("result %q (isError %v), model asked %d times", text, res.IsError, asked)
	}
}

func rpcData(e *jsonrpc.Error) string {
	if e == nil {
		return ""
	}
	return string(e.Data)
}

// TestSampleWithToolsReplay2026: the state of a round whose answer made
// the model's tool calls run cannot bring that answer again (the tools
// would run twice); the state of the next round goes on.
func TestSampleWithToolsReplay2026(t *testing.T) {
	calls := new(atomic.Int64)
	srv, ds := compileCounting(t, sampleToolsConfig, nil, calls)
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	c := rawSession(t, srv)
	meta := map[string]any{mcp.MetaKeyProtocolVersion: "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"sampling": map[string]any{"tools": map[string]any{}}}}
	call := func(extra map[string]any) (map[string]any, *jsonrpc.Error) {
		p := map[string]any{"name": "ask", "arguments": map[string]any{"question": "Oslo?"}, "_meta": meta}
		for k, v := range extra {
			p[k] = v
		}
		return c.call("tools/call", p)
	}
	first, err := call(nil)
	if err != nil || first["inputRequests"].(map[string]any)["answer"] == nil {
		t.Fatalf("first round: %v %v", first, err)
	}
	useTool := map[string]any{"requestState": first["requestState"], "inputResponses": map[string]any{
		"answer": map[string]any{"role": "assistant", "model": "m", "stopReason": "toolUse",
			"content": []any{map[string]any{"type": "tool_use", "id": "u1", "name": "lookup", "input": map[string]any{"city": "Oslo"}}}}}}
	second, err := call(useTool)
	if err != nil || second["inputRequests"].(map[string]any)["answer_2"] == nil {
		t.Fatalf("second round: %v %v; want the next turn as answer_2", second, err)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("lookup ran %d times, want 1", n)
	}
	if _, err := call(useTool); err == nil || err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("replayed state: %v; want -32602", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("after the replay lookup ran %d times, want 1", n)
	}
	last, err := call(map[string]any{"requestState": second["requestState"], "inputResponses": map[string]any{
		"answer_2": map[string]any{"role": "assistant", "model": "m", "content": []any{map[string]any{"type": "text", "text": "709000."}}}}})
	if err != nil || textContent(last) != "709000. (1 tool calls)" {
		t.Errorf("last round: %v %v", last, err)
	}
}
