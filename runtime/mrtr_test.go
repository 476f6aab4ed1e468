package runtime

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// countingSession counts the log steps that ran.
type countingSession struct {
	noSession
	logs []string
}

func (c *countingSession) logAt(_ context.Context, _ mcp.LoggingLevel, _ string, data any) {
	c.logs = append(c.logs, data.(string))
}

// TestRoundsDoNotRerunSteps: at 2026-07-28 a retry resumes where the call
// stopped: steps that ran in an earlier round do not run again, and none
// runs while a question is pending.
func TestRoundsDoNotRerunSteps(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, `version: 1
tools:
  - name: t
    description: d
    steps:
      - log: {message: before}
      - elicit: {message: "Who?", schema: {type: object, properties: {name: {type: string}}}, as: who}
      - log: {message: "after {{ .steps.who.content.name }}"}
    content: [{text: "{{ .steps.who.content.name }}"}]
`, nil)
	tl := srv.plan.ToolIndex["t"]
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}
	ss := &countingSession{noSession: noSession{handlers.Nop{}}}
	ctx := context.Background()
	args := map[string]any{}

	r1 := modernRound(modernVersion, caps, nil, "")
	if !r1.begin(ctx, srv, "tool", "t", args) {
		t.Fatal(r1.protoErr)
	}
	if err := srv.runSteps(ctx, "t", tl.Steps, map[string]any{"args": args}, ss, r1); !errors.Is(err, errInputRequired) {
		t.Fatalf("round 1: %v, want input required", err)
	}
	if len(r1.asked) != 1 || r1.asked["who"] == nil {
		t.Errorf("round 1 asked %v", r1.asked)
	}
	state := r1.stateToken(srv)

	answers := mcp.InputResponseMap{"who": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}}
	r2 := modernRound(modernVersion, caps, answers, state)
	if !r2.begin(ctx, srv, "tool", "t", args) {
		t.Fatal(r2.protoErr)
	}
	data := map[string]any{"args": args}
	if err := srv.runSteps(ctx, "t", tl.Steps, data, ss, r2); err != nil {
		t.Fatalf("round 2: %v", err)
	}
	if got := ss.logs; len(got) != 2 || got[0] != "before" || got[1] != "after Ada" {
		t.Errorf("log steps ran: %q, want before once, then after", got)
	}
}

// TestRoundsKeepCallResults: a call step before a question runs again in
// the round that brings the answer, so the steps after it see its result
// (it was lost), and the config is warned that the request is sent again.
func TestRoundsKeepCallResults(t *testing.T) {
	t.Parallel()
	calls := new(atomic.Int64)
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": `version: 1
tools:
  - name: t
    description: d
    steps:
      - call: {as: found, handler: {kind: echo, result: {id: c7}}}
      - elicit: {message: "Sure?", as: sure}
      - log: {message: "updating {{ .steps.found.id }}"}
    content: [{text: "{{ .steps.found.id }}"}]
`})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(calls)})
	if srv == nil {
		t.Fatal(ds)
	}
	defer srv.Close()
	wantDiag(t, ds, "warning: tools[0].steps[0]: this request is sent again when a later step's question is answered")
	tl := srv.plan.ToolIndex["t"]
	caps := &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}
	ss := &countingSession{noSession: noSession{handlers.Nop{}}}
	ctx := context.Background()
	args := map[string]any{}
	r1 := modernRound(modernVersion, caps, nil, "")
	if !r1.begin(ctx, srv, "tool", "t", args) {
		t.Fatal(r1.protoErr)
	}
	if err := srv.runSteps(ctx, "t", tl.Steps, map[string]any{"args": args}, ss, r1); !errors.Is(err, errInputRequired) {
		t.Fatalf("round 1: %v, want input required", err)
	}
	answers := mcp.InputResponseMap{"sure": &mcp.ElicitResult{Action: "accept"}}
	r2 := modernRound(modernVersion, caps, answers, r1.stateToken(srv))
	if !r2.begin(ctx, srv, "tool", "t", args) {
		t.Fatal(r2.protoErr)
	}
	if err := srv.runSteps(ctx, "t", tl.Steps, map[string]any{"args": args}, ss, r2); err != nil {
		t.Fatalf("round 2: %v", err)
	}
	if len(ss.logs) != 1 || ss.logs[0] != "updating c7" {
		t.Errorf("log steps ran: %q, want the call's result", ss.logs)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("the call ran %d times, want once per round", n)
	}
}
