package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/templates"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stepSession is what steps need from the session that made a call.
type stepSession interface {
	handlers.Notifier
	logAt(ctx context.Context, level mcp.LoggingLevel, logger string, data any)
	createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	closeStream(retry time.Duration)
}

// errNoSession is the failure of a step that needs a client outside a session.
var errNoSession = errors.New("this step needs an MCP client session")

// noSession runs steps for a call made outside any MCP session.
type noSession struct{ handlers.Notifier }

func (n noSession) logAt(ctx context.Context, level mcp.LoggingLevel, _ string, data any) {
	l, ok := slogLevels[level]
	if !ok {
		l = slog.LevelError
	}
	n.Log(ctx, l, fmt.Sprint(data), nil)
}

func (noSession) createMessage(context.Context, *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	return nil, errNoSession
}

func (noSession) elicit(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return nil, errNoSession
}

func (noSession) closeStream(time.Duration) {}

func asStepSession(n handlers.Notifier) stepSession {
	if s, ok := n.(stepSession); ok {
		return s
	}
	return noSession{n}
}

// runSteps runs the tool's confirm and steps in order, putting their
// results in data["steps"]. It returns a result when the call must stop
// there (declined, canceled, failed), nil to go on.
func (s *Server) runSteps(ctx context.Context, t *tool, data map[string]any, ss stepSession) *mcp.CallToolResult {
	results := map[string]any{}
	data["steps"] = results
	for _, st := range t.steps {
		res, err := s.runStep(ctx, t, st, data, ss)
		if err != nil {
			return errorResult(s.redact.apply(err.Error()))
		}
		if st.as != "" {
			results[st.as] = res
		}
	}
	return nil
}

func (s *Server) runStep(ctx context.Context, t *tool, st *step, data map[string]any, ss stepSession) (any, error) {
	text, err := execOptional(st.text, data)
	if err != nil {
		return nil, err
	}
	switch st.kind {
	case "log":
		logger := st.logger
		if logger == "" {
			logger = t.def.Name
		}
		ss.logAt(ctx, st.level, logger, text)
	case "progress":
		ss.Progress(ctx, st.progress, st.total, text)
	case "sleep":
		return nil, sleep(ctx, st.wait)
	case "close_stream":
		ss.closeStream(st.wait)
	case "sample":
		return s.sample(ctx, st, text, data, ss)
	case "elicit", "confirm":
		return elicit(ctx, st, text, ss)
	}
	return nil, ctx.Err()
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("canceled: %w", ctx.Err())
	case <-timer.C:
		return nil
	}
}

func (s *Server) sample(ctx context.Context, st *step, prompt string, data map[string]any, ss stepSession) (any, error) {
	system, err := execOptional(st.system, data)
	if err != nil {
		return nil, err
	}
	res, err := ss.createMessage(ctx, &mcp.CreateMessageParams{MaxTokens: st.maxTokens, SystemPrompt: system,
		Temperature: st.temperature,
		Messages:    []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}}})
	if err != nil {
		return nil, fmt.Errorf("asking the client's model: %w", err)
	}
	out := map[string]any{"model": res.Model, "role": string(res.Role), "stop_reason": res.StopReason, "text": ""}
	if tc, ok := res.Content.(*mcp.TextContent); ok {
		out["text"] = tc.Text
	}
	return out, nil
}

func elicit(ctx context.Context, st *step, message string, ss stepSession) (any, error) {
	res, err := ss.elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: st.schema})
	if err != nil {
		return nil, fmt.Errorf("asking the user: %w", err)
	}
	if res.Action != "accept" && !st.optional {
		what := "declined"
		if res.Action == "cancel" {
			what = "canceled"
		}
		if st.kind == "confirm" {
			return nil, fmt.Errorf("the user %s the confirmation: nothing was done", what)
		}
		return nil, fmt.Errorf("the user %s the request for input: nothing was done", what)
	}
	content := res.Content
	if content == nil {
		content = map[string]any{}
	}
	return map[string]any{"action": res.Action, "content": content}, nil
}

// execOptional renders t, or "" when there is no template.
func execOptional(t *templates.Template, data map[string]any) (string, error) {
	if t == nil {
		return "", nil
	}
	return t.Execute(data)
}
