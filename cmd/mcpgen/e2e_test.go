package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect launches `mcpgen serve files...` as a subprocess and connects the
// go-sdk client to it over stdio, as a desktop client would.
func connect(t *testing.T, files ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(binary(t), append([]string{"serve"}, files...)...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestStdioEndToEnd(t *testing.T) {
	t.Parallel()
	cs := connect(t, "../../examples/quickstart/mcpgen.yaml", "testdata/e2e/slow.yaml")
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "quickstart" || init.Capabilities.Prompts == nil || init.Capabilities.Completions == nil {
		t.Errorf("initialize: server %+v, capabilities %+v", init.ServerInfo, init.Capabilities)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	want := []string{"count_lines", "disk_free", "greet", "list_notes", "search_notes", "slow", "word_frequency"}
	if diff := cmp.Diff(want, sorted(names)); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}

	res := callTool(t, cs, "search_notes", map[string]any{"pattern": "rollback"})
	if !strings.Contains(text(res), "notes/deploy.md:5:") || res.IsError {
		t.Errorf("search_notes: %q", text(res))
	}
	// Hostile text is only ever an argument: it matches nothing and runs nothing.
	res = callTool(t, cs, "search_notes", map[string]any{"pattern": "$(touch pwned); `touch pwned`"})
	if res.IsError || text(res) != "" {
		t.Errorf("hostile pattern: isError=%v %q", res.IsError, text(res))
	}
	if _, err := os.Stat("../../examples/quickstart/pwned"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a hostile argument created a file: %v", err)
	}
	res = callTool(t, cs, "word_frequency", map[string]any{"note": "deploy.md", "top": 1})
	var freq struct{ Words []struct{ Count int } }
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &freq); err != nil || len(freq.Words) != 1 || freq.Words[0].Count != 3 {
		t.Errorf("word_frequency structured content: %s", raw) // three words occur three times
	}
	res = callTool(t, cs, "word_frequency", map[string]any{"note": "deploy.md", "top": 500})
	if !res.IsError || !strings.Contains(text(res), "/top") {
		t.Errorf("out-of-range argument: isError=%v %q", res.IsError, text(res))
	}

	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note", Arguments: map[string]string{"note": "oncall.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(prompt.Messages) != 2 || !strings.Contains(prompt.Messages[1].Content.(*mcp.TextContent).Text, "oncall.md linked above in a neutral tone") {
		t.Errorf("prompts/get: %+v", prompt.Messages)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_note"}); err == nil || !strings.Contains(err.Error(), "note") {
		t.Errorf("prompts/get without a required argument: %v", err)
	}

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://ideas.md"})
	if err != nil || !strings.HasPrefix(read.Contents[0].Text, "# Ideas") || read.Contents[0].MIMEType != "text/markdown" {
		t.Errorf("resources/read of a template: %v %+v", err, read)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://..%2Fmcpgen.yaml"}); err == nil {
		t.Errorf("a resource read left the root")
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != "quickstart://about" {
		t.Errorf("resources/list: %v %+v", err, list)
	}

	comp, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "summarize_note"},
		Argument: mcp.CompleteParamsArgument{Name: "tone", Value: "ch"}})
	if err != nil || !cmp.Equal(comp.Completion.Values, []string{"cheerful"}) {
		t.Errorf("completion/complete: %v %+v", err, comp)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Errorf("logging/setLevel: %v", err)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}
}

// TestStdioCancel cancels a running call: the client sends
// notifications/cancelled, and the backend's process is killed.
func TestStdioCancel(t *testing.T) {
	t.Parallel()
	cs := connect(t, "testdata/e2e/slow.yaml")
	mark := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"mark": mark}})
		done <- err
	}()
	pid := waitPID(t, mark)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("canceled call returned %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs after the call was canceled", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The session goes on.
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Errorf("ping after cancel: %v", err)
	}
}

func waitPID(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the tool did not start")
	return 0
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
