package runtime

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"time"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// URL-mode elicitation (2025-11-25): the user is sent to a web page; the
// step may wait, by polling a handler, until they have finished there.

const (
	defaultPollEvery  = 2 * time.Second
	defaultURLTimeout = 10 * time.Minute
)

// errNoURLElicitation is the failure of a URL step for a client that did
// not declare URL elicitation.
var errNoURLElicitation = errors.New("the client cannot send the user to a web page: " +
	"it did not declare URL elicitation (capabilities.elicitation.url)")

// urlStep compiles an elicit step that sends the user to a URL.
func (b *builder) urlStep(f *load.File, path string, e *spec.ElicitStep, s *step, roots map[string][]string) *step {
	if e.URL == "" {
		b.errorf(f, path, "until, poll_every and timeout are for elicit steps with a url")
		return nil
	}
	s.kind, s.schema = "elicit_url", nil
	s.url = b.template(f, path+".url", e.URL, withRoot(roots, "elicitation", []string{"id"}))
	s.every, s.timeout = cmp.Or(time.Duration(e.PollEvery), defaultPollEvery), cmp.Or(time.Duration(e.Timeout), defaultURLTimeout)
	if e.Until == nil {
		if e.PollEvery != 0 || e.Timeout != 0 {
			b.errorf(f, path, "poll_every and timeout are for a step that waits with until")
		}
		return s
	}
	if e.As == "" {
		b.diag(f, load.Error, path+".until", "a step that waits needs a name", "set as, so that until can read steps.AS.id")
		return s
	}
	extra := types.Map{authName: b.identity.typ}
	maps.Copy(extra, stepsType(append(roots["steps"], e.As)))
	s.until = b.buildHandler(f, path+".until", e.Until, b.argsType, nil, extra)
	return s
}

// elicitURL sends the user to the step's page and, with until, waits for
// them to finish there.
func (s *Server) elicitURL(ctx context.Context, st *step, message string, data map[string]any, ss stepSession) (any, error) {
	if !ss.urlElicitation() {
		return nil, errNoURLElicitation
	}
	id := rand.Text()
	page, err := st.url.Execute(withValue(data, "elicitation", map[string]any{"id": id}))
	if err != nil {
		return nil, err
	}
	if u, err := url.Parse(page); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("the page to send the user to, %q, is not an absolute http: or https: URL", page)
	}
	res, err := ss.elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: message, URL: page, ElicitationID: id})
	if err != nil {
		return nil, fmt.Errorf("sending the user to %s: %w", page, err)
	}
	out := map[string]any{"action": res.Action, "id": id}
	if res.Action != "accept" {
		if st.optional {
			return out, nil
		}
		return nil, fmt.Errorf("the user %s going to %s: nothing was done", map[bool]string{true: "canceled", false: "declined"}[res.Action == "cancel"], page)
	}
	if st.until == nil {
		return out, nil
	}
	steps, _ := data["steps"].(map[string]any)
	steps[st.as] = out // until sees the id
	result, err := s.waitUntil(ctx, st, data, ss)
	if err != nil {
		return nil, err
	}
	out["result"] = result
	ss.elicitationComplete(ctx, id)
	return out, nil
}

// waitUntil calls the step's until handler every st.every until it
// succeeds, the call is canceled, or st.timeout passes.
func (s *Server) waitUntil(ctx context.Context, st *step, data map[string]any, ss stepSession) (any, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, st.timeout)
	defer cancel()
	args, _ := data["args"].(map[string]any)
	steps, _ := data["steps"].(map[string]any)
	auth, _ := data[authName].(map[string]any)
	for {
		res, err := st.until.Call(ctx, &handlers.Call{Args: args, Notify: ss, Steps: steps, Auth: auth})
		if err == nil && !res.IsError {
			if res.Structured != nil {
				return res.Structured, nil
			}
			return contentText(res.Content), nil
		}
		if err := sleep(ctx, st.every); err != nil {
			if parent.Err() == nil {
				return nil, fmt.Errorf("the user did not finish on the page within %s", st.timeout)
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
