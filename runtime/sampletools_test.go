package runtime

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// answer without tools.
func TestSampleWithTools(t *testing.T) {
	t.Run("whole", func(t *testing.T) { sampleWithTools(t, Selection{}) })
	// served alone (serve --tools ask), the tool still offers the tool it
	// names while sampling
	t.Run("selected", func(t *testing.T) { sampleWithTools(t, Selection{Tools: []string{"ask"}}) })
}

func sampleWithTools(t *testing.T, sel Selection) {
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
	cs := session(t, srv, "2025-11-25", &mcp.ClientOptions{
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
// tools support gets an error result, and its model is never asked.
func TestSampleWithToolsUndeclared(t *testing.T) {
	asked := 0
	cs := session(t, mustCompile(t, sampleToolsConfig, nil), "2025-11-25", &mcp.ClientOptions{
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
