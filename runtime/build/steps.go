package build

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// DefaultMaxTokens is a sample step's max_tokens when the config gives none.
const DefaultMaxTokens = 1000

// emptyForm is the requested schema of a confirmation: no fields.
var emptyForm = json.RawMessage(`{"type":"object","properties":{}}`)

// steps compiles a tool's confirm and steps. roots gains `steps`, naming
// the results later templates may use.
func (b *builder) steps(f *load.File, path string, t *spec.Tool, roots map[string][]string) []*plan.Step {
	var out []*plan.Step
	if t.Confirm != "" {
		out = append(out, &plan.Step{Kind: "confirm", Key: "confirm", Text: b.template(f, path+".confirm", t.Confirm, roots),
			Schema: emptyForm})
	}
	out = append(out, b.stepList(f, path, t.Steps, roots)...)
	for i, st := range out {
		if i > 0 && out[0].Kind == "confirm" && st.Key == "confirm" {
			b.errorf(f, path+".confirm", "a step result is named confirm too; name it otherwise, the answers would mix")
		}
	}
	return out
}

// stepList compiles a list of steps (a tool's or a prompt's).
func (b *builder) stepList(f *load.File, path string, steps []*spec.Step, roots map[string][]string) []*plan.Step {
	var out []*plan.Step
	names := []string{}
	for i, st := range steps {
		p := fmt.Sprintf("%s.steps[%d]", path, i)
		stepRoots := withRoot(roots, "steps", names)
		s := b.step(f, p, st, stepRoots)
		if s == nil {
			continue
		}
		if st.When != nil {
			s.When, s.WhenSrc = b.stepCondition(f, p+".when", st.When, stepRoots), st.When.Node.Value
		}
		s.Key = cmp.Or(s.As, fmt.Sprintf("step%d", i+1))
		if s.As != "" {
			if slices.Contains(names, s.As) {
				b.errorf(f, p, "step result %q is named twice", s.As)
			}
			names = append(names, s.As)
		}
		out = append(out, s)
	}
	roots["steps"] = names
	b.warnCallBeforeQuestion(f, path, out)
	return out
}

// askingSteps compiles the steps of a prompt or a resource (what), which
// can only ask the client.
func (b *builder) askingSteps(f *load.File, path, what string, steps []*spec.Step, roots map[string][]string) []*plan.Step {
	out := b.stepList(f, path, steps, roots)
	b.statelessSteps(f, path, "", steps)
	for i, st := range steps {
		if st != nil && st.Elicit == nil && st.Sample == nil && st.Roots == nil {
			b.errorf(f, fmt.Sprintf("%s.steps[%d]", path, i), "a %s's steps can only ask the client: elicit, sample or roots", what)
		}
	}
	return out
}

// warnCallBeforeQuestion warns of a call step before a step that asks the
// client: a 2026-07-28 request runs the steps again when the answer comes
// back, so the call's request is sent again.
func (b *builder) warnCallBeforeQuestion(f *load.File, path string, steps []*plan.Step) {
	for i, st := range steps {
		if st.Kind != "call" {
			continue
		}
		for _, later := range steps[i+1:] {
			if later.Capability() != "" {
				b.diag(f, load.Warning, fmt.Sprintf("%s.steps[%d]", path, i),
					"this request is sent again when a later step's question is answered (2026-07-28 requests)",
					"put call steps that change something after the steps that ask the client")
				break
			}
		}
	}
}

func withRoot(roots map[string][]string, name string, below []string) map[string][]string {
	m := make(map[string][]string, len(roots)+1)
	for k, v := range roots {
		m[k] = v
	}
	m[name] = below
	return m
}

func (b *builder) step(f *load.File, path string, st *spec.Step, roots map[string][]string) *plan.Step {
	switch {
	case st == nil:
		return nil // reported when the file loaded, as a step without an action
	case st.Log != nil:
		return b.logStep(f, path+".log", st.Log, roots)
	case st.Progress != nil:
		return &plan.Step{Kind: "progress", Progress: st.Progress.Progress, Total: st.Progress.Total,
			Text: b.template(f, path+".progress.message", st.Progress.Message, roots)}
	case st.Sleep != nil:
		return &plan.Step{Kind: "sleep", Wait: time.Duration(*st.Sleep)}
	case st.Sample != nil:
		return b.sampleStep(f, path+".sample", st.Sample, roots)
	case st.Elicit != nil:
		return b.elicitStep(f, path+".elicit", st.Elicit, roots)
	case st.Roots != nil:
		return &plan.Step{Kind: "roots", As: st.Roots.As, IfSupported: st.Roots.IfSupported}
	case st.Call != nil:
		return b.callStep(f, path+".call", st.Call, roots)
	case st.CloseStream != nil:
		retry := time.Duration(st.CloseStream.Retry)
		if retry <= 0 {
			retry = 100 * time.Millisecond
		}
		return &plan.Step{Kind: "close_stream", Wait: retry}
	}
	return nil // no action: reported when the file loaded
}

func (b *builder) logStep(f *load.File, path string, l *spec.LogStep, roots map[string][]string) *plan.Step {
	s := &plan.Step{Kind: "log", Level: "info", Logger: l.Logger, Text: b.template(f, path+".message", l.Message, roots)}
	if l.Level != "" {
		s.Level = mcp.LoggingLevel(l.Level) // the decoder checked it against the enum
	}
	return s
}

func (b *builder) sampleStep(f *load.File, path string, sm *spec.SampleStep, roots map[string][]string) *plan.Step {
	s := &plan.Step{Kind: "sample", As: sm.As, MaxTokens: int64(sm.MaxTokens), IfSupported: sm.IfSupported,
		Text: b.template(f, path+".prompt", sm.Prompt, roots)}
	if sm.System != "" {
		s.System = b.template(f, path+".system", sm.System, roots)
	}
	if s.MaxTokens <= 0 {
		s.MaxTokens = DefaultMaxTokens
	}
	if sm.Temperature != nil {
		s.Temperature = *sm.Temperature
	}
	b.offerTools(f, path, sm, s)
	return s
}

func (b *builder) elicitStep(f *load.File, path string, e *spec.ElicitStep, roots map[string][]string) *plan.Step {
	s := &plan.Step{Kind: "elicit", As: e.As, Optional: e.Optional, Schema: emptyForm, IfSupported: e.IfSupported,
		Text: b.template(f, path+".message", e.Message, roots)}
	if e.URL != "" || e.Until != nil || e.PollEvery != 0 || e.Timeout != 0 {
		return b.urlStep(f, path, e, s, roots)
	}
	if !e.Schema.IsZero() {
		raw, err := load.JSON(e.Schema.Node)
		if err == nil {
			err = checkElicitSchema(raw)
		}
		if err != nil {
			b.diag(f, load.Error, path+".schema", fmt.Sprintf("invalid elicitation schema: %v", err),
				"an object whose properties are strings, numbers, integers, booleans or enums")
		}
		s.Schema = raw
	}
	return s
}

// checkElicitSchema checks what clients require of a requested schema: a
// root object whose properties are flat.
func checkElicitSchema(raw json.RawMessage) error {
	var doc struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	if doc.Type != "object" {
		return fmt.Errorf("the root must have type: object")
	}
	for name, p := range doc.Properties {
		var prop struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(p, &prop); err != nil {
			return fmt.Errorf("property %q: %v", name, err)
		}
		switch prop.Type {
		case "string", "number", "integer", "boolean", "array":
		default:
			return fmt.Errorf("property %q has type %q; nested objects are not allowed", name, prop.Type)
		}
	}
	return nil
}

// stepsType is the expression type of `steps` for a tool whose named step
// results are names; nil when it has none.
func stepsType(names []string) types.Map {
	if len(names) == 0 {
		return nil
	}
	m := types.Map{}
	for _, n := range names {
		m[n] = types.Map{types.Extra: types.Any}
	}
	return types.Map{"steps": m}
}

const (
	defaultPollEvery  = 2 * time.Second
	defaultURLTimeout = 10 * time.Minute
)

// urlStep compiles an elicit step that sends the user to a URL.
func (b *builder) urlStep(f *load.File, path string, e *spec.ElicitStep, s *plan.Step, roots map[string][]string) *plan.Step {
	if e.URL == "" {
		b.errorf(f, path, "until, poll_every and timeout are for elicit steps with a url")
		return nil
	}
	s.Kind, s.Schema = "elicit_url", nil
	s.URL = b.template(f, path+".url", e.URL, withRoot(roots, "elicitation", []string{"id"}))
	s.Every, s.Timeout = cmp.Or(time.Duration(e.PollEvery), defaultPollEvery), cmp.Or(time.Duration(e.Timeout), defaultURLTimeout)
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
	extra := types.Map{plan.AuthName: b.identity.Type}
	maps.Copy(extra, stepsType(append(roots["steps"], e.As)))
	s.Until = b.buildHandler(f, path+".until", e.Until, b.argsType, nil, extra)
	return s
}

// stepVars is the expression environment of a step: `args`, `auth` and
// the results of the steps named in roots.
func (b *builder) stepVars(roots map[string][]string) types.Map {
	env := types.Map{"args": b.argsType, plan.AuthName: b.identity.Type}
	if b.argsType == nil {
		env["args"] = types.Map{}
	}
	maps.Copy(env, stepsType(roots["steps"]))
	return env
}

// callStep compiles a call step; its handler is typed by the tool's
// arguments and the steps before it.
func (b *builder) callStep(f *load.File, path string, c *spec.CallStep, roots map[string][]string) *plan.Step {
	s := &plan.Step{Kind: "call", As: c.As}
	if c.Handler == nil {
		return nil // reported when the file loaded: handler is required
	}
	if strings.HasPrefix(path, "prompts") {
		b.errorf(f, path, "call steps are for tools")
		return nil
	}
	extra := types.Map{plan.AuthName: b.identity.Type}
	maps.Copy(extra, stepsType(roots["steps"]))
	if c.ForEach != nil {
		s.Each = b.compile(f, path+".for_each", c.ForEach.Node, b.stepVars(roots))
		if s.Each == nil {
			return nil
		}
		extra["item"] = types.Any
	}
	s.Call = b.buildHandler(f, path+".handler", c.Handler, b.argsType, nil, extra)
	if s.Call == nil {
		return nil
	}
	return s
}

// stepCondition compiles a step's when: a boolean expression.
func (b *builder) stepCondition(f *load.File, path string, v *spec.Value, roots map[string][]string) *eval.Value {
	val := b.compile(f, path, v.Node, b.stepVars(roots))
	if val != nil && !val.IsExpression() {
		b.diag(f, load.Error, path, "when is an expression, e.g. ${{ len(steps.found.items) == 0 }}", "")
		return nil
	}
	return val
}

// defaultMaxTurns bounds the rounds of tool calls of a sample step.
const defaultMaxTurns = 5

// offerTools records the tools a sample step offers.
func (b *builder) offerTools(f *load.File, path string, sm *spec.SampleStep, s *plan.Step) {
	if len(sm.Tools) == 0 {
		if sm.ToolChoice != "" || sm.MaxTurns != 0 {
			b.errorf(f, path, "tool_choice and max_turns are for a sample step that offers tools")
		}
		return
	}
	if sm.MaxTurns < 0 {
		b.errorf(f, path+".max_turns", "max_turns must not be negative, got %d", sm.MaxTurns)
	}
	s.Offer, s.ToolChoice, s.MaxTurns = sm.Tools, cmp.Or(sm.ToolChoice, "auto"), cmp.Or(sm.MaxTurns, defaultMaxTurns)
	toolPath, _, _ := strings.Cut(path, ".steps")
	owner := ""
	if n := f.Node(toolPath + ".name"); n != nil {
		owner = n.Value
	}
	b.offers = append(b.offers, offer{f: f, path: path, owner: owner, names: sm.Tools})
}

// checkOffers reports offered tools that do not exist or that offer tools
// themselves (a model could then call tools without end).
func (b *builder) checkOffers() {
	var declared []string
	for key := range b.seen {
		if name, ok := strings.CutPrefix(key, "tool:"); ok {
			declared = append(declared, name)
		}
	}
	slices.Sort(declared)
	for _, o := range b.offers {
		for i, name := range o.names {
			p := fmt.Sprintf("%s.tools[%d]", o.path, i)
			t, ok := b.plan.ToolIndex[name]
			switch {
			case !ok && slices.Contains(declared, name):
				// declared, but broken: reported where it is defined
			case !ok:
				b.diag(o.f, load.Error, p, fmt.Sprintf("unknown tool %q", name), suggest.DidYouMean(name, declared))
			case name == o.owner || offersTools(t):
				b.diag(o.f, load.Error, p, fmt.Sprintf("tool %q offers tools to the model itself", name),
					"offer only tools whose steps do not sample with tools, so that calls cannot nest without end")
			}
		}
	}
}

func offersTools(t *plan.Tool) bool {
	return slices.ContainsFunc(t.Steps, func(s *plan.Step) bool { return len(s.Offer) > 0 })
}

// offer is a sample step's list of tools, checked once every tool is built.
type offer struct {
	f     *load.File
	path  string // tools[i].steps[j].sample
	owner string // the tool whose step it is
	names []string
}
