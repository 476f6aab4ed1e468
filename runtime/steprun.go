package runtime

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/loglevel"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/templates"
)

// stepSession is what steps need from the session that made a call.
type stepSession interface {
	handlers.Notifier
	logAt(ctx context.Context, level mcp.LoggingLevel, logger string, data any)
	createMessage(ctx context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error)
	// samplingTools reports whether the client's model can be offered tools.
	samplingTools() bool
	createMessageWithTools(ctx context.Context, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error)
	elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	// urlElicitation reports whether the client can send the user to a URL.
	urlElicitation() bool
	// elicitationComplete tells the client the user finished on a page.
	elicitationComplete(ctx context.Context, id string)
	closeStream(retry time.Duration)
	listRoots(ctx context.Context) (*mcp.ListRootsResult, error)
	// supports reports whether the client declared a capability.
	supports(capability string) bool
}

// errNoSession is the failure of a step that needs a client outside a session.
var errNoSession = errors.New("this step needs an MCP client session")

// noSession runs steps for a call made outside any MCP session.
type noSession struct{ handlers.Notifier }

func (n noSession) logAt(ctx context.Context, level mcp.LoggingLevel, _ string, data any) {
	l, ok := loglevel.Slog(level)
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

func (noSession) listRoots(context.Context) (*mcp.ListRootsResult, error) { return nil, errNoSession }

func (noSession) supports(string) bool { return false }

func (noSession) urlElicitation() bool { return false }

func (noSession) samplingTools() bool { return false }

func (noSession) createMessageWithTools(context.Context, *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	return nil, errNoSession
}

func (noSession) elicitationComplete(context.Context, string) {}

func asStepSession(n handlers.Notifier) stepSession {
	if s, ok := n.(stepSession); ok {
		return s
	}
	return noSession{n}
}

// runSteps runs steps in order, putting their results in data["steps"].
// A step that asks the client (sample, elicit, confirm, roots) asks it by a
// server-to-client request when round is nil (a client with a session);
// for a 2026-07-28 request, round collects the questions instead (mrtr.go)
// and runSteps returns errInputRequired once it cannot go on without their
// answers. Any other error stops the call: the tool fails with its text.
func (s *Server) runSteps(ctx context.Context, name string, steps []*plan.Step, data map[string]any, ss stepSession, round *inputRound) error {
	results := map[string]any{}
	data["steps"] = results
	for i, st := range steps {
		if skip, err := st.Skip(data); err != nil || skip {
			if err != nil {
				return errors.New(s.plan.Redact.Apply(err.Error()))
			}
			continue
		}
		if round != nil {
			res, ok, err := round.step(ctx, s, i, st, data, ss)
			switch {
			case err != nil:
				return err
			case round.waiting():
				continue // more questions for this round, or nothing more to run
			case ok:
				if st.As != "" {
					results[st.As] = res
				}
				continue
			}
		}
		sctx, end := observe.Step(ctx, st.Kind)
		res, err := s.runStep(sctx, name, st, data, ss)
		end(err)
		if err != nil {
			return errors.New(s.plan.Redact.Apply(err.Error()))
		}
		if st.As != "" && res != nil {
			results[st.As] = res
		}
	}
	if round != nil && round.waiting() {
		return errInputRequired
	}
	return nil
}

func (s *Server) runStep(ctx context.Context, name string, st *plan.Step, data map[string]any, ss stepSession) (any, error) {
	if st.IfSupported && !ss.supports(st.Capability()) {
		return nil, nil
	}
	text, err := execOptional(st.Text, data)
	if err != nil {
		return nil, err
	}
	switch st.Kind {
	case "log":
		ss.logAt(ctx, st.Level, cmp.Or(st.Logger, name), text)
	case "progress":
		ss.Progress(ctx, st.Progress, st.Total, text)
	case "sleep":
		return nil, sleep(ctx, st.Wait)
	case "close_stream":
		ss.closeStream(st.Wait)
	case "sample":
		if len(st.Offer) > 0 {
			return s.sampleWithTools(ctx, st, text, data, ss)
		}
		p, err := sampleParams(st, text, data)
		if err != nil {
			return nil, err
		}
		res, err := ss.createMessage(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("asking the client's model: %w", err)
		}
		return sampleResult(res.Model, string(res.Role), res.StopReason, []mcp.Content{res.Content}), nil
	case "elicit", "confirm":
		res, err := ss.elicit(ctx, &mcp.ElicitParams{Message: text, RequestedSchema: st.Schema})
		if err != nil {
			return nil, fmt.Errorf("asking the user: %w", err)
		}
		return elicitResult(st, res)
	case "elicit_url":
		return s.elicitURL(ctx, st, text, data, ss)
	case "call":
		return runCall(ctx, st, data, ss)
	case "roots":
		res, err := ss.listRoots(ctx)
		if err != nil {
			return nil, fmt.Errorf("asking the client for its roots: %w", err)
		}
		return rootsResult(res), nil
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

// sampleParams is the request of a sample step whose prompt is rendered.
func sampleParams(st *plan.Step, prompt string, data map[string]any) (*mcp.CreateMessageParams, error) {
	system, err := execOptional(st.System, data)
	if err != nil {
		return nil, err
	}
	return &mcp.CreateMessageParams{MaxTokens: st.MaxTokens, SystemPrompt: system, Temperature: st.Temperature,
		Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}}}, nil
}

// sampleResult is what templates see of a sample step's reply.
func sampleResult(model, role, stop string, content []mcp.Content) map[string]any {
	out := map[string]any{"model": model, "role": role, "stop_reason": stop, "text": ""}
	for _, c := range content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out["text"] = tc.Text
			break
		}
	}
	return out
}

// elicitResult is what templates see of the user's answer; declining or
// canceling a step that is not optional stops the call.
func elicitResult(st *plan.Step, res *mcp.ElicitResult) (any, error) {
	if res.Action != "accept" && !st.Optional {
		what := "declined"
		if res.Action == "cancel" {
			what = "canceled"
		}
		if st.Kind == "confirm" {
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

// rootsResult is what templates and expressions see of the client's roots:
// each root's uri and name, and the local paths of the file:// ones.
func rootsResult(res *mcp.ListRootsResult) map[string]any {
	roots, paths := []any{}, []any{}
	for _, r := range res.Roots {
		if r == nil {
			continue
		}
		roots = append(roots, map[string]any{"uri": r.URI, "name": r.Name})
		if u, err := url.Parse(r.URI); err == nil && u.Scheme == "file" && u.Path != "" {
			paths = append(paths, filepath.FromSlash(u.Path))
		}
	}
	return map[string]any{"roots": roots, "paths": paths}
}

// execOptional renders t, or "" when there is no template.
func execOptional(t *templates.Template, data map[string]any) (string, error) {
	if t == nil {
		return "", nil
	}
	return t.Execute(data)
}
