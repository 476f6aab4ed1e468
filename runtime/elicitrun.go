package runtime

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"net/url"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// URL-mode elicitation (2025-11-25): the user is sent to a web page; the
// step may wait, by polling a handler, until they have finished there.

// errNoURLElicitation is the failure of a URL step for a client that did
// not declare URL elicitation.
var errNoURLElicitation = errors.New("the client cannot send the user to a web page: " +
	"it did not declare URL elicitation (capabilities.elicitation.url)")

// elicitURL sends the user to the step's page and, with until, waits for
// them to finish there (a client with a session).
func (s *Server) elicitURL(ctx context.Context, st *plan.Step, message string, data map[string]any, ss stepSession) (any, error) {
	if !ss.urlElicitation() {
		return nil, errNoURLElicitation
	}
	id := rand.Text()
	page, err := urlPage(st, data, id)
	if err != nil {
		return nil, err
	}
	res, err := ss.elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: message, URL: page, ElicitationID: id})
	if err != nil {
		return nil, fmt.Errorf("sending the user to %s: %w", page, err)
	}
	return s.urlAnswered(ctx, st, res.Action, id, page, data, ss, true)
}

// urlPage renders the page of a URL step for the elicitation id.
func urlPage(st *plan.Step, data map[string]any, id string) (string, error) {
	page, err := st.URL.Execute(withValue(data, "elicitation", map[string]any{"id": id}))
	if err != nil {
		return "", err
	}
	if u, err := url.Parse(page); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", fmt.Errorf("the page to send the user to, %q, is not an absolute http: or https: URL", page)
	}
	return page, nil
}

// urlAnswered is the result of a URL step the user answered with action:
// with until, once the user finished on the page (the client is told so
// when notify: a session's elicitation has an id the client knows).
func (s *Server) urlAnswered(ctx context.Context, st *plan.Step, action, id, page string, data map[string]any, ss stepSession, notify bool) (any, error) {
	out := map[string]any{"action": action, "id": id}
	if action != "accept" {
		if st.Optional {
			return out, nil
		}
		return nil, fmt.Errorf("the user %s going to %s: nothing was done", map[bool]string{true: "canceled", false: "declined"}[action == "cancel"], page)
	}
	if st.Until == nil {
		return out, nil
	}
	steps, _ := data["steps"].(map[string]any)
	steps[st.As] = out // until sees the id
	result, err := s.waitUntil(ctx, st, data, ss)
	if err != nil {
		return nil, err
	}
	out["result"] = result
	if notify {
		ss.elicitationComplete(ctx, id)
	}
	return out, nil
}

// urlStep settles a URL elicitation of a 2026-07-28 call. Its input
// request has no elicitationId (2026-07-28 has none, nor the completion
// notification): the id the page ties the user's outcome to is kept in the
// request state between rounds. Once the user accepted, a step with until
// waits for them to finish on the page within the call that brought the
// answer.
func (r *inputRound) urlStep(ctx context.Context, s *Server, i int, st *plan.Step, data map[string]any, ss stepSession) (any, bool, error) {
	var id string
	asked := r.pending(st.Key, &id)
	if !asked {
		id = rand.Text()
	}
	page, err := urlPage(st, data, id)
	if err == nil && asked {
		if resp, ok := r.responses[st.Key]; ok {
			er, ok := resp.(*mcp.ElicitResult)
			if !ok || (er.Action != "accept" && er.Action != "decline" && er.Action != "cancel") {
				return nil, false, notAnswerTo(st.Key, "elicitation/create")
			}
			res, err := s.urlAnswered(ctx, st, er.Action, id, page, data, ss, false)
			if err != nil {
				return nil, false, err
			}
			r.settle(st.Key, res)
			return res, true, nil
		}
	}
	var message string
	if err == nil {
		message, err = execOptional(st.Text, data)
	}
	if err != nil {
		if r.waiting() { // it needs an answer still to come
			return nil, true, nil
		}
		return nil, false, errors.New(s.plan.Redact.Apply(err.Error()))
	}
	r.keep(st.Key, id)
	r.ask(i, st.Key, &mcp.ElicitParams{Mode: "url", Message: message, URL: page})
	return nil, true, nil
}

// waitUntil calls the step's until handler every st.every until it
// succeeds, the call is canceled, or st.timeout passes.
func (s *Server) waitUntil(ctx context.Context, st *plan.Step, data map[string]any, ss stepSession) (any, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, st.Timeout)
	defer cancel()
	args, _ := data["args"].(map[string]any)
	steps, _ := data["steps"].(map[string]any)
	auth, _ := data[plan.AuthName].(map[string]any)
	for {
		res, err := st.Until.Call(ctx, &handlers.Call{Args: args, Notify: ss, Steps: steps, Auth: auth})
		if err == nil && !res.IsError {
			if res.Structured != nil {
				return res.Structured, nil
			}
			return res.Text(), nil
		}
		if err := sleep(ctx, st.Every); err != nil {
			if parent.Err() == nil {
				return nil, fmt.Errorf("the user did not finish on the page within %s", st.Timeout)
			}
			return nil, err
		}
	}
}

// withValue returns data with one more name, leaving data as it is.
func withValue(data map[string]any, name string, v any) map[string]any {
	m := maps.Clone(data)
	m[name] = v
	return m
}
