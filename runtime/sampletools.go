package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
)

// Sampling with tools (2025-11-25): a sample step offers tools of the
// config to the client's model and runs the calls it asks for, turn by
// turn, up to a bound.

// errNoSamplingTools is the failure of a step offering tools to a client
// that cannot pass them to its model.
var errNoSamplingTools = errors.New("the client's model cannot be offered tools: " +
	"the client did not declare sampling with tools (capabilities.sampling.tools)")

// sampleWithTools asks the client's model, offering the step's tools, and
// answers its tool calls until it stops asking or the turns run out; then
// it must answer without tools (a client with a session).
func (s *Server) sampleWithTools(ctx context.Context, st *plan.Step, prompt string, data map[string]any, ss stepSession) (any, error) {
	if !ss.samplingTools() {
		return nil, errNoSamplingTools
	}
	conv, err := startConversation(st, prompt, data)
	if err != nil {
		return nil, err
	}
	for {
		res, err := ss.createMessageWithTools(ctx, s.toolsParams(st, conv))
		if err != nil {
			return nil, fmt.Errorf("asking the client's model: %w", err)
		}
		if out, done := s.nextTurn(ctx, st, conv, res, ss); done {
			return out, nil
		}
	}
}

// conversation is a sampling with tools in progress: the messages so far,
// the turns taken and the tool calls run. At 2026-07-28 it is kept in the
// request state between rounds.
type conversation struct {
	System   string                   `json:"s,omitempty"`
	Messages []*mcp.SamplingMessageV2 `json:"m"`
	Turn     int                      `json:"t"`
	Calls    int                      `json:"c"`
}

// startConversation begins a sample step's conversation with its prompt.
func startConversation(st *plan.Step, prompt string, data map[string]any) (*conversation, error) {
	system, err := execOptional(st.System, data)
	if err != nil {
		return nil, err
	}
	return &conversation{System: system,
		Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: prompt}}}}}, nil
}

// toolsParams is the request of the conversation's next turn; the last
// turn offers no tool.
func (s *Server) toolsParams(st *plan.Step, conv *conversation) *mcp.CreateMessageWithToolsParams {
	p := &mcp.CreateMessageWithToolsParams{MaxTokens: st.MaxTokens, SystemPrompt: conv.System, Temperature: st.Temperature,
		Messages: conv.Messages, ToolChoice: &mcp.ToolChoice{Mode: st.ToolChoice}}
	if conv.Turn == st.MaxTurns {
		p.ToolChoice = &mcp.ToolChoice{Mode: "none"} // the last word, without tools
	}
	for _, name := range st.Offer {
		p.Tools = append(p.Tools, s.plan.AllTools[name].Def)
	}
	return p
}

// nextTurn takes the model's answer: the step's result when it calls no
// tool or the turns ran out; else the tools it calls run and the
// conversation goes on.
func (s *Server) nextTurn(ctx context.Context, st *plan.Step, conv *conversation, res *mcp.CreateMessageWithToolsResult, ss stepSession) (any, bool) {
	uses := toolUses(res.Content)
	if len(uses) == 0 || conv.Turn == st.MaxTurns {
		return sampled(res, conv.Calls), true
	}
	conv.Messages = append(conv.Messages, &mcp.SamplingMessageV2{Role: "assistant", Content: res.Content},
		&mcp.SamplingMessageV2{Role: "user", Content: s.runToolUses(ctx, st, uses, ss)})
	conv.Calls += len(uses)
	conv.Turn++
	return nil, false
}

// sampleToolsStep settles a sample step offering tools in a 2026-07-28
// call: each turn of the conversation is an input request (the step's key,
// then KEY_2, KEY_3...), the tools the model calls run when its answer
// comes, and the conversation waits in the request state for the next
// round.
func (r *inputRound) sampleToolsStep(ctx context.Context, s *Server, i int, st *plan.Step, data map[string]any, ss stepSession) (any, bool, error) {
	conv := &conversation{}
	if r.pending(st.Key, conv) {
		if resp, ok := r.responses[turnKey(st.Key, conv.Turn)]; ok {
			res, ok := resp.(*mcp.CreateMessageWithToolsResult)
			if !ok {
				return nil, false, notAnswerTo(turnKey(st.Key, conv.Turn), "sampling/createMessage")
			}
			// the tools it calls run once: this state cannot bring them again
			if len(toolUses(res.Content)) > 0 && r.token != "" && !s.plan.States.SpendOnce(r.token, r.prev.Expires) {
				return nil, false, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: reqstate.ErrBad.Error()}
			}
			if out, done := s.nextTurn(ctx, st, conv, res, ss); done {
				r.settle(st.Key, out)
				return out, true, nil
			}
		}
	} else {
		prompt, err := execOptional(st.Text, data)
		if err == nil {
			conv, err = startConversation(st, prompt, data)
		}
		if err != nil {
			if r.waiting() { // it needs an answer still to come
				return nil, true, nil
			}
			return nil, false, errors.New(s.plan.Redact.Apply(err.Error()))
		}
	}
	r.keep(st.Key, conv)
	r.ask(i, turnKey(st.Key, conv.Turn), s.toolsParams(st, conv))
	return nil, true, nil
}

// turnKey is the input request key of a conversation's turn: unique over
// the call, and over a task's life.
func turnKey(key string, turn int) string {
	if turn == 0 {
		return key
	}
	return fmt.Sprintf("%s_%d", key, turn+1)
}

func toolUses(cs []mcp.Content) []*mcp.ToolUseContent {
	var out []*mcp.ToolUseContent
	for _, c := range cs {
		if u, ok := c.(*mcp.ToolUseContent); ok {
			out = append(out, u)
		}
	}
	return out
}

// runToolUses runs the tool calls the model asked for, in order, and
// returns their results; a call of a tool not offered is an error result.
func (s *Server) runToolUses(ctx context.Context, st *plan.Step, uses []*mcp.ToolUseContent, ss stepSession) []mcp.Content {
	out := make([]mcp.Content, 0, len(uses))
	for _, u := range uses {
		var res *mcp.CallToolResult
		t := s.plan.AllTools[u.Name]
		switch {
		case !slices.Contains(st.Offer, u.Name):
			res = errorResult(fmt.Sprintf("tool %q was not offered; call one of %s", u.Name, strings.Join(st.Offer, ", ")))
		case !auth.CallerFrom(ctx).HasScopes(t.Scopes):
			res = errorResult(fmt.Sprintf("%q needs the scope(s) %s, which this caller was not granted", u.Name, strings.Join(t.Scopes, " ")))
		default:
			raw, _ := json.Marshal(u.Input)
			res = s.call(ctx, t, raw, ss, nil)
		}
		out = append(out, &mcp.ToolResultContent{ToolUseID: u.ID, Content: res.Content,
			StructuredContent: res.StructuredContent, IsError: res.IsError})
	}
	return out
}

// sampled is a sample step's result: the model's last answer.
func sampled(res *mcp.CreateMessageWithToolsResult, calls int) map[string]any {
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return map[string]any{"model": res.Model, "role": string(res.Role), "stop_reason": res.StopReason,
		"text": strings.Join(text, "\n"), "tool_calls": int64(calls)}
}
