package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// getPrompt answers prompts/get: the prompt's messages rendered with the
// request's arguments, defaults applied, after its steps (which ask the
// client, by a request or, at 2026-07-28, by an InputRequiredResult).
func (s *Server) getPrompt(ctx context.Context, p *plan.Prompt, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	given := req.Params.Arguments
	args := map[string]any{}
	var missing []string
	for _, a := range p.Args {
		v, ok := given[a.Name]
		switch {
		case ok:
			args[a.Name] = v
		case a.Required:
			missing = append(missing, a.Name)
		default:
			args[a.Name] = a.Default
		}
	}
	if len(missing) > 0 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("prompt %q: missing required arguments: %s", p.Def.Name, strings.Join(missing, ", "))}
	}
	data := map[string]any{"args": args}
	if len(p.Steps) > 0 {
		if res, err := s.promptSteps(ctx, p, req, args, data); res != nil || err != nil {
			return res, err
		}
	}
	blocks, err := content.Render(p.Messages, data)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: s.plan.Redact.Apply(err.Error())}
	}
	res := &mcp.GetPromptResult{Description: p.Def.Description}
	for i, c := range blocks {
		res.Messages = append(res.Messages, &mcp.PromptMessage{Role: p.Roles[i], Content: c})
	}
	return res, nil
}

// promptSteps runs a prompt's steps. It returns the questions of a
// 2026-07-28 request that waits for answers, or an error; nil, nil to go on
// rendering.
func (s *Server) promptSteps(ctx context.Context, p *plan.Prompt, req *mcp.GetPromptRequest, args, data map[string]any) (*mcp.GetPromptResult, error) {
	asked, state, err := s.askSteps(ctx, "prompt", p.Def.Name, p.Steps, req.Session, req.ProtocolVersion(),
		req.ClientCapabilities(), req.Params.InputResponses, req.Params.RequestState, args, data)
	if asked != nil {
		return &mcp.GetPromptResult{InputRequests: asked, RequestState: state}, nil
	}
	return nil, err
}

// askSteps runs the steps of a prompt or a resource, which only ask the
// client: by requests to the session of an older client; at 2026-07-28 by
// input requests, returned with the signed state of the next round until
// every question is answered. A client that did not declare what a step
// needs gets -32021 at 2026-07-28, and an error from the step before.
// Protocol errors are returned as they are, any other as an internal
// error. nil, "", nil: the steps are done and their results in data.
func (s *Server) askSteps(ctx context.Context, kind, name string, steps []*plan.Step, ss *mcp.ServerSession,
	version string, caps *mcp.ClientCapabilities, responses mcp.InputResponseMap, state string,
	args, data map[string]any) (mcp.InputRequestMap, string, error) {
	var need []string
	for _, st := range steps {
		if !st.IfSupported {
			need = append(need, st.Capability())
		}
	}
	if err := missingCapabilities(need, caps); err != nil && version >= modernVersion {
		return nil, "", err
	}
	round := modernRound(version, caps, responses, state)
	if round != nil && !round.begin(ctx, s, kind, name, args) {
		return nil, "", round.protoErr
	}
	err := s.runSteps(ctx, name, steps, data, &sessionAsker{ss: ss, caps: caps}, round)
	var protoErr *jsonrpc.Error
	switch {
	case errors.Is(err, errInputRequired):
		return round.asked, round.stateToken(s), nil
	case errors.As(err, &protoErr):
		return nil, "", err
	case err != nil:
		return nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	if round != nil && !round.finish(s) {
		return nil, "", round.protoErr
	}
	return nil, "", nil
}

// sessionAsker asks the client of a session for what a prompt's steps need.
type sessionAsker struct {
	handlers.Nop
	ss   *mcp.ServerSession
	caps *mcp.ClientCapabilities
}

func (a *sessionAsker) logAt(context.Context, mcp.LoggingLevel, string, any) {}
func (a *sessionAsker) closeStream(time.Duration)                            {}
func (a *sessionAsker) supports(capability string) bool                      { return declares(a.caps, capability) }

func (a *sessionAsker) createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return a.ss.CreateMessage(ctx, p)
}

func (a *sessionAsker) elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return a.ss.Elicit(ctx, p)
}

func (a *sessionAsker) createMessageWithTools(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	return a.ss.CreateMessageWithTools(ctx, p)
}

func (a *sessionAsker) samplingTools() bool {
	return a.caps != nil && a.caps.Sampling != nil && a.caps.Sampling.Tools != nil
}

func (a *sessionAsker) urlElicitation() bool {
	return a.caps != nil && a.caps.Elicitation != nil && a.caps.Elicitation.URL != nil
}

func (a *sessionAsker) elicitationComplete(ctx context.Context, id string) {
	_ = a.ss.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
}

func (a *sessionAsker) listRoots(ctx context.Context) (*mcp.ListRootsResult, error) {
	return a.ss.ListRoots(ctx, &mcp.ListRootsParams{})
}

var _ stepSession = (*sessionAsker)(nil)
