package httpkind

import (
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/handlers"
)

// safeMethods change nothing on the server.
var safeMethods = []string{"GET", "HEAD", "OPTIONS"}

// checkAnnotations warns when the tool's declared annotations contradict
// its request: clients show them to users and may skip confirmations on
// their word.
func (h *handler) checkAnnotations(env handlers.BuildEnv) {
	te, ok := env.(handlers.ToolAnnotations)
	if !ok || te.Annotations() == nil {
		return
	}
	a := te.Annotations()
	safe := slices.Contains(safeMethods, h.method)
	switch {
	case isTrue(a.ReadOnly) && !safe && !h.idempotent:
		// a POST that only reads (a search) is safe to repeat: idempotent says so
		env.Warn("method", fmt.Sprintf("the tool is annotated read_only but sends %s; "+
			"if the API only reads, set idempotent: true on the handler", h.method))
	case isTrue(a.Destructive) && safe:
		env.Warn("method", fmt.Sprintf("the tool is annotated destructive but sends %s, which changes nothing", h.method))
	case isTrue(a.Idempotent) && !isIdempotent(h.method) && !h.idempotent:
		env.Warn("method", fmt.Sprintf("the tool is annotated idempotent but sends %s, which is never retried; "+
			"set idempotent: true on the handler if repeating it is safe", h.method))
	case a.Idempotent != nil && !*a.Idempotent && h.idempotent:
		env.Warn("idempotent", "the handler is idempotent but the tool is annotated idempotent: false")
	}
}

func isTrue(b *bool) bool { return b != nil && *b }
