package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
)

// At 2026-07-28 a server asks its client nothing by itself: a call whose
// steps need the client's model, the user or the client's roots is
// answered with those questions (an InputRequiredResult) and a signed
// requestState (reqstate.go), and the client calls again with the answers.
// Each call runs the steps from the top:
//
//   - a step that asks nothing (log, progress, sleep) runs unless an earlier
//     round ran it already; none runs while a question is pending;
//   - a question answered in an earlier round takes its answer from the
//     state, without asking again;
//   - a question answered by this call's inputResponses takes that answer;
//   - any other question is asked: questions that follow each other go out
//     together, unless one needs the answer of another (its template cannot
//     render yet), which waits for the next round.
//
// The handler runs, once, when every step is settled. Answers to questions
// not asked are ignored; an answer of the wrong kind is a protocol error.

// modernVersion is the first protocol revision without server-to-client
// requests.
const modernVersion = "2026-07-28"

// errInputRequired stops the steps of a call that waits for answers.
var errInputRequired = errors.New("input required")

// inputRound is what a 2026-07-28 call knows of its questions and answers.
type inputRound struct {
	caps      *mcp.ClientCapabilities
	responses mcp.InputResponseMap
	token     string          // the requestState of this call, if any
	prev      *reqstate.State // the state it carried, once verified
	next      reqstate.State  // the state of the next round
	asked     mcp.InputRequestMap
	done      int   // the first step that has not run
	protoErr  error // a bad state or answer: the call fails with a JSON-RPC error
	// carried is the state of the previous round when the server keeps it
	// itself (a task's rounds): neither signed nor spent.
	carried *reqstate.State
}

// modernRound returns the round of a 2026-07-28 request, nil for a client
// that is asked by server-to-client requests.
func modernRound(version string, caps *mcp.ClientCapabilities, responses mcp.InputResponseMap, state string) *inputRound {
	if version < modernVersion {
		return nil
	}
	return &inputRound{caps: caps, responses: responses, token: state, asked: mcp.InputRequestMap{}}
}

// begin checks the request state against the call, whose arguments are
// decoded: kind and name, arguments, caller. False after setting protoErr.
func (r *inputRound) begin(ctx context.Context, s *Server, kind, name string, args any) bool {
	r.next = reqstate.State{Kind: kind, Name: name, Args: reqstate.ArgsDigest(args), Answers: map[string]json.RawMessage{}}
	if c := auth.CallerFrom(ctx); c != nil {
		r.next.Caller = c.Subject
	}
	if r.carried != nil {
		r.resume(r.carried)
		return true
	}
	if r.token == "" {
		return true
	}
	st, err := s.plan.States.Open(r.token, kind, name, r.next.Args, r.next.Caller)
	if err != nil {
		r.protoErr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		return false
	}
	r.resume(st)
	return true
}

// resume starts from the state of the previous round.
func (r *inputRound) resume(st *reqstate.State) {
	r.prev, r.next.Chain = st, st.Chain
	maps.Copy(r.next.Answers, st.Answers)
	if len(st.Pending) > 0 {
		r.next.Pending = maps.Clone(st.Pending)
	}
}

func (r *inputRound) waiting() bool { return len(r.asked) > 0 }

// step settles step i of a 2026-07-28 call without running it, if it can:
// a question answered or asked now, a step that ran in an earlier round or
// must wait for the next. settled false: run the step.
func (r *inputRound) step(ctx context.Context, s *Server, i int, st *plan.Step, data map[string]any, ss stepSession) (res any, settled bool, err error) {
	capability := st.Capability()
	if capability == "" {
		// a call step runs again: later steps need its result (see
		// warnCallBeforeQuestion)
		done := r.prev != nil && i < r.prev.Done && st.Kind != "call"
		return nil, r.waiting() || done, nil
	}
	if st.IfSupported && !declares(r.caps, capability) {
		return nil, true, nil
	}
	if raw, ok := r.next.Answers[st.Key]; ok {
		var v any
		_ = json.Unmarshal(raw, &v) // we signed it
		return v, true, nil
	}
	switch {
	case st.Kind == "elicit_url":
		return r.urlStep(ctx, s, i, st, data, ss)
	case len(st.Offer) > 0:
		return r.sampleToolsStep(ctx, s, i, st, data, ss)
	}
	req, err := inputRequest(st, data)
	if err != nil {
		if r.waiting() { // it needs an answer still to come
			return nil, true, nil
		}
		return nil, false, errors.New(s.plan.Redact.Apply(err.Error()))
	}
	if resp, ok := r.responses[st.Key]; ok {
		if res, err = answer(st, resp); err != nil {
			return nil, false, err
		}
		raw, _ := json.Marshal(res)
		r.next.Answers[st.Key] = raw
		return res, true, nil
	}
	r.ask(i, st.Key, req)
	return nil, true, nil
}

// ask puts a question of step i in this round.
func (r *inputRound) ask(i int, key string, req mcp.InputRequest) {
	if !r.waiting() {
		r.done = i
	}
	r.asked[key] = req
}

// settle records the result of a step whose question is answered.
func (r *inputRound) settle(key string, res any) {
	raw, _ := json.Marshal(res)
	r.next.Answers[key] = raw
	delete(r.next.Pending, key)
}

// pending decodes what a step kept from an earlier round into v; false if
// it kept nothing.
func (r *inputRound) pending(key string, v any) bool {
	raw, ok := r.next.Pending[key]
	return ok && json.Unmarshal(raw, v) == nil // we signed it
}

// keep stores what a step keeps for the next round.
func (r *inputRound) keep(key string, v any) {
	raw, _ := json.Marshal(v)
	if r.next.Pending == nil {
		r.next.Pending = map[string]json.RawMessage{}
	}
	r.next.Pending[key] = raw
}

// inputRequest renders the question of an interactive step.
func inputRequest(st *plan.Step, data map[string]any) (mcp.InputRequest, error) {
	text, err := execOptional(st.Text, data)
	if err != nil {
		return nil, err
	}
	switch st.Kind {
	case "sample":
		return sampleParams(st, text, data)
	case "roots":
		return &mcp.ListRootsParams{}, nil
	}
	return &mcp.ElicitParams{Message: text, RequestedSchema: st.Schema}, nil
}

// answer turns the client's answer to a step's question into the step's
// result; an answer of another kind is a protocol error.
func answer(st *plan.Step, resp mcp.InputResponse) (any, error) {
	switch r := resp.(type) {
	case *mcp.ElicitResult:
		if st.Kind == "elicit" || st.Kind == "confirm" {
			switch r.Action {
			case "accept", "decline", "cancel":
				return elicitResult(st, r)
			}
		}
	case *mcp.CreateMessageWithToolsResult:
		if st.Kind == "sample" {
			return sampleResult(r.Model, string(r.Role), r.StopReason, r.Content), nil
		}
	case *mcp.ListRootsResult:
		if st.Kind == "roots" {
			return rootsResult(r), nil
		}
	}
	return nil, notAnswerTo(st.Key, inputMethod[st.Kind])
}

// notAnswerTo is the protocol error of an answer of the wrong kind.
func notAnswerTo(key, method string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("inputResponses[%q] is not the answer to a %s request", key, method)}
}

var inputMethod = map[string]string{"sample": "sampling/createMessage", "elicit": "elicitation/create",
	"confirm": "elicitation/create", "roots": "roots/list"}

// finish ends a round whose steps are all settled: the state it came with,
// if any, is spent, so that the call cannot complete twice.
func (r *inputRound) finish(s *Server) bool {
	if r.prev == nil || r.carried != nil {
		return true
	}
	if !s.plan.States.Claim(r.prev) {
		r.protoErr = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: reqstate.ErrBad.Error()}
		return false
	}
	return true
}

// stateToken signs the state of the next round.
func (r *inputRound) stateToken(s *Server) string {
	r.next.Done = r.done
	return s.plan.States.Sign(&r.next)
}

// then is the round that follows r, in which the server itself carries
// the state and the client's answers come as responses (a task's rounds).
func (r *inputRound) then(responses mcp.InputResponseMap) *inputRound {
	r.next.Done = r.done
	return &inputRound{caps: r.caps, responses: responses, asked: mcp.InputRequestMap{}, carried: &r.next}
}

// declares reports whether the client declared a capability.
func declares(caps *mcp.ClientCapabilities, capability string) bool {
	if caps == nil {
		return false
	}
	switch capability {
	case plan.CapSampling:
		return caps.Sampling != nil
	case plan.CapElicitation:
		return caps.Elicitation != nil
	case plan.CapRoots:
		return caps.RootsV2 != nil || caps.Roots.ListChanged
	case plan.CapSamplingTools:
		return caps.Sampling != nil && caps.Sampling.Tools != nil
	case plan.CapElicitationURL:
		return caps.Elicitation != nil && caps.Elicitation.URL != nil
	}
	return true
}

// missingCapabilities is the -32021 error of a 2026-07-28 call that needs
// capabilities its client did not declare; nil when none is missing. Its
// data names them as a ClientCapabilities object, e.g. {"sampling":{}}.
func missingCapabilities(need []string, caps *mcp.ClientCapabilities) error {
	missing := map[string]any{}
	var names []string
	for _, c := range need {
		if !declares(caps, c) {
			// sampling.tools is {"sampling":{"tools":{}}}
			top, sub, nested := strings.Cut(c, ".")
			if !nested {
				missing[top] = struct{}{}
			} else if m, ok := missing[top].(map[string]any); ok {
				m[sub] = struct{}{}
			} else {
				missing[top] = map[string]any{sub: struct{}{}}
			}
			names = append(names, c)
		}
	}
	if len(names) == 0 {
		return nil
	}
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": missing})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Data: data,
		Message: "this call needs client capabilities the request did not declare: " + strings.Join(names, ", ")}
}
