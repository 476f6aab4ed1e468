package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// ErrNoDryRun says a tool's handler cannot show a call without making it.
var ErrNoDryRun = errors.New("this tool's handler has no dry run")

// DryRun describes what calling tool name with JSON args would do, without
// doing it (`mcpgen call --dry-run`): for an http tool, the exact request
// with secrets masked. Arguments are validated as for a call.
func (s *Server) DryRun(ctx context.Context, name string, args []byte) (string, error) {
	s = s.now()
	t, ok := s.plan.ToolIndex[name]
	if !ok {
		return "", errors.New(s.unknownTool(name))
	}
	dr, ok := t.Handler.(handlers.DryRunner)
	calls := slices.ContainsFunc(t.Steps, func(st *plan.Step) bool { return st.Kind == "call" })
	if !ok && !calls {
		return "", ErrNoDryRun
	}
	a, who, err := s.prepare(ctx, t, args)
	if err != nil {
		return "", err
	}
	c := &handlers.Call{Args: a, Notify: handlers.Nop{}, Auth: who, Steps: map[string]any{}}
	out := dryRunSteps(ctx, t.Steps, c)
	if ok {
		req, err := dr.DryRun(ctx, c)
		if err != nil && !calls {
			return "", errors.New(s.plan.Redact.Apply(err.Error()))
		}
		if calls {
			out += "# handler\n"
			if err != nil {
				req = fmt.Sprintf("(depends on the results of earlier steps: %v)\n", err)
			}
		}
		out += req
	}
	return s.plan.Redact.Apply(out), nil
}
