package plan

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/templates"
)

// Client capabilities a step may need.
const (
	CapSampling    = "sampling"
	CapElicitation = "elicitation"
	CapRoots       = "roots"
	// what some step forms need beyond their capability
	CapSamplingTools  = "sampling.tools"
	CapElicitationURL = "elicitation.url"
)

// Step is one compiled tool step.
type Step struct {
	Kind        string // confirm, log, progress, sleep, sample, elicit, close_stream
	Level       mcp.LoggingLevel
	Logger      string
	Text        *templates.Template // log or progress message, sample prompt, elicit message
	System      *templates.Template
	Progress    float64
	Total       float64
	Wait        time.Duration
	MaxTokens   int64
	Temperature float64
	Schema      json.RawMessage
	As          string
	Optional    bool
	Key         string   // names its input request (2026-07-28): as, or else confirm or stepN
	IfSupported bool     // skipped when the client lacks the capability
	Offer       []string // tools the model may call while sampling
	ToolChoice  string
	MaxTurns    int
	URL         *templates.Template // a URL-mode elicitation's page
	Until       handlers.Handler    // succeeds once the user finished on the page
	Every       time.Duration       // how often until is called
	Timeout     time.Duration       // how long the user has
	Call        handlers.Handler    // a call step's request
	Each        *eval.Value         // a call step's for_each; nil: one request
	When        *eval.Value         // runs the step only when true; nil: always
	WhenSrc     string              // the condition as written, for dry runs
}

// Capability returns the client capability the step needs: "" for steps
// that ask the client nothing.
func (st *Step) Capability() string {
	switch st.Kind {
	case "sample":
		if len(st.Offer) > 0 {
			return CapSamplingTools
		}
		return CapSampling
	case "elicit_url":
		return CapElicitationURL
	case "elicit", "confirm":
		return CapElicitation
	case "roots":
		return CapRoots
	}
	return ""
}

// Skip reports whether a step's condition is false.
func (st *Step) Skip(data map[string]any) (bool, error) {
	if st.When == nil {
		return false, nil
	}
	x, err := st.When.Eval(data)
	if err != nil {
		return false, fmt.Errorf("step %s: when: %w", st.Key, err)
	}
	b, ok := x.(bool)
	if !ok {
		return false, fmt.Errorf("step %s: when gave %s, not true or false", st.Key, eval.Format(x))
	}
	return !b, nil
}
