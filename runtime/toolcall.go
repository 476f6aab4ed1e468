package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// What happens on tools/call, in order: callTool finds the tool, call
// decodes and validates the arguments (package input, Args.Decode), runs the tool's steps
// (steprun.go), calls its handler, checks the result against the output
// schema, renders the tool's content (content.go) and masks credentials.

// MaxArgsSize bounds the JSON arguments of one tool call.
const MaxArgsSize = input.MaxSize

// callTool answers tools/call. An unknown tool is a protocol error (-32602),
// as the go-sdk answers it, and so are a bad requestState or answer and, at
// 2026-07-28, a missing client capability (-32021); everything else is a
// tool result.
func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.Params == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing params"}
	}
	t, ok := s.plan.ToolIndex[req.Params.Name]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: s.unknownTool(req.Params.Name)}
	}
	n := &notifier{req: req, logger: t.Def.Name, levels: s.plan.LogLevels}
	var round *inputRound
	if t.Interactive || len(t.Requires) > 0 {
		// An older client's session may not know what it declared (a
		// stateless server forgets it): a step it cannot answer fails.
		version, caps := req.ProtocolVersion(), req.ClientCapabilities()
		if err := missingCapabilities(t.Requires, caps); err != nil && version >= modernVersion {
			return nil, err
		}
		n.caps = caps
		round = modernRound(version, caps, req.Params.InputResponses, req.Params.RequestState)
	}
	res := s.call(ctx, t, req.Params.Arguments, n, round)
	if round != nil && round.protoErr != nil {
		return nil, round.protoErr
	}
	if res.Content == nil && res.InputRequests == nil {
		res.Content = []mcp.Content{} // "content" is required: never null
	}
	return res, nil
}

// CallTool calls a tool outside any MCP session (for `mcpgen call` and
// tests). Argument errors and tool failures come back as a result with
// IsError set; the error is for an unknown tool.
func (s *Server) CallTool(ctx context.Context, name string, args []byte, n handlers.Notifier) (*mcp.CallToolResult, error) {
	t, ok := s.plan.ToolIndex[name]
	if !ok {
		return nil, errors.New(s.unknownTool(name))
	}
	if n == nil {
		n = handlers.Nop{}
	}
	return s.call(ctx, t, args, n, nil), nil
}

// unknownTool says that no tool is called name, suggesting the one
// probably meant.
func (s *Server) unknownTool(name string) string {
	msg := fmt.Sprintf("unknown tool %q", name)
	if hint := suggest.DidYouMean(name, s.ToolNames()); hint != "" {
		msg += "; " + hint
	}
	return msg
}

// prepare decodes and validates a call's arguments, and binds those the
// server sets from the caller, whom it returns as expressions see it when
// the tool reads `auth`.
func (s *Server) prepare(ctx context.Context, t *plan.Tool, raw json.RawMessage) (args, who map[string]any, err error) {
	if args, err = t.Args.Decode(raw); err != nil {
		return nil, nil, err
	}
	if t.NeedsCaller { // the caller as expressions see it costs a copy of its claims
		if who = s.plan.Identity.CallerVars(ctx); who == nil {
			return nil, nil, errors.New(errNoCaller)
		}
	}
	if err := bind(t, args, who); err != nil {
		return nil, nil, err
	}
	return args, who, nil
}

// call runs the tool with raw JSON arguments. Everything a model can get
// wrong comes back as a result with IsError set. Credentials are masked in
// whatever the result holds.
// A 2026-07-28 call (round not nil) may instead end with questions for the
// client (mrtr.go), or with round.protoErr set and no result.
func (s *Server) call(ctx context.Context, t *plan.Tool, raw json.RawMessage, n handlers.Notifier, round *inputRound) *mcp.CallToolResult {
	res := s.run(ctx, t, raw, n, round)
	if res == nil {
		return &mcp.CallToolResult{}
	}
	return s.limitResult(ctx, t, s.plan.Mask.ToolResult(res))
}

func (s *Server) run(ctx context.Context, t *plan.Tool, raw json.RawMessage, n handlers.Notifier, round *inputRound) *mcp.CallToolResult {
	if msg := s.plan.Limits.Limited(ctx, s.plan.Obs.Metrics, s.plan.Logger, t.Def.Name, t.Limit); msg != "" {
		return errorResult(msg)
	}
	args, who, err := s.prepare(ctx, t, raw)
	if err != nil {
		return errorResult(err.Error())
	}
	if round != nil && !round.begin(ctx, s, "tool", t.Def.Name, args) {
		return nil
	}
	data := map[string]any{"args": args, plan.AuthName: who} // auth: for the handlers of steps
	if err := s.runSteps(ctx, t.Def.Name, t.Steps, data, asStepSession(n), round); err != nil {
		var protoErr *jsonrpc.Error
		switch {
		case errors.Is(err, errInputRequired):
			return &mcp.CallToolResult{InputRequests: round.asked, RequestState: round.stateToken(s)}
		case errors.As(err, &protoErr):
			round.protoErr = err
			return nil
		}
		return errorResult(err.Error())
	}
	if round != nil && !round.finish(s) {
		return nil
	}
	var res *handlers.Result
	if t.Handler != nil {
		steps, _ := data["steps"].(map[string]any)
		res, err = t.Handler.Call(ctx, &handlers.Call{Args: args, Notify: n, Steps: steps, Auth: who})
		if err != nil {
			if ctx.Err() != nil {
				return errorResult("canceled: " + s.plan.Redact.Apply(err.Error()))
			}
			return errorResult(s.plan.Redact.Apply(err.Error()))
		}
		data["result"] = res.Structured
		if res.Structured == nil {
			data["result"] = res.Text() // a text result, for templates
		}
	}
	out := &mcp.CallToolResult{IsError: t.IsError}
	if res != nil {
		out.Content, out.IsError = content.FromHandlers(res.Content), res.IsError
		if res.Structured == nil && !res.IsError && t.Out != nil {
			return errorResult("the tool declares an output schema but its result has no structured content")
		}
		if res.Structured != nil && !res.IsError {
			if t.Out != nil {
				if err := t.Out.Validate(res.Structured); err != nil {
					return errorResult("the result does not match the tool's output schema: " + err.Error())
				}
			}
			out.StructuredContent = res.Structured
		}
	}
	// a handler's error result stands as it is: content renders results
	if len(t.Content) > 0 && (res == nil || !res.IsError) {
		if out.Content, err = content.Render(t.Content, data); err != nil {
			return errorResult(s.plan.Redact.Apply(err.Error()))
		}
	}
	if len(out.Content) == 0 && out.StructuredContent != nil {
		text, _ := json.MarshalIndent(out.StructuredContent, "", "  ")
		out.Content = []mcp.Content{&mcp.TextContent{Text: string(text)}}
	}
	if out.Content == nil {
		out.Content = []mcp.Content{}
	}
	return out
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
