package runtime

import (
	"encoding/json"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/templates"
)

// step is one compiled tool step.
type step struct {
	kind        string // confirm, log, progress, sleep, sample, elicit, close_stream
	level       mcp.LoggingLevel
	logger      string
	text        *templates.Template // log or progress message, sample prompt, elicit message
	system      *templates.Template
	progress    float64
	total       float64
	wait        time.Duration
	maxTokens   int64
	temperature float64
	schema      json.RawMessage
	as          string
	optional    bool
	key         string   // names its input request (2026-07-28): as, or else confirm or stepN
	ifSupported bool     // skipped when the client lacks the capability
	offer       []string // tools the model may call while sampling
	toolChoice  string
	maxTurns    int
	url         *templates.Template // a URL-mode elicitation's page
	until       handlers.Handler    // succeeds once the user finished on the page
	every       time.Duration       // how often until is called
	timeout     time.Duration       // how long the user has
	call        handlers.Handler    // a call step's request
	each        *eval.Value         // a call step's for_each; nil: one request
	when        *eval.Value         // runs the step only when true; nil: always
	whenSrc     string              // the condition as written, for dry runs
}

// capability returns the client capability the step needs: "" for steps
// that ask the client nothing.
func (st *step) capability() string {
	switch st.kind {
	case "sample":
		if len(st.offer) > 0 {
			return capSamplingTools
		}
		return capSampling
	case "elicit_url":
		return capElicitationURL
	case "elicit", "confirm":
		return capElicitation
	case "roots":
		return capRoots
	}
	return ""
}
