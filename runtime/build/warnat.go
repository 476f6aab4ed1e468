package build

import (
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// WarnAt reports a warning at byte off of the text of field; see DiagAt.
func (e *buildEnv) WarnAt(field string, off int, msg string) {
	p := load.JoinPath(e.path, field)
	if !e.reportable(p) || e.f.Skipped(p) {
		return
	}
	e.b.reporter(e.f).AtOffset(load.Warning, e.f.Node(p), off, p, msg, "")
}

var _ handlers.WarnAter = (*buildEnv)(nil)
