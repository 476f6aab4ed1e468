package runtime

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/handlers"
)

// ErrNoDryRun says a tool's handler cannot show a call without making it.
var ErrNoDryRun = errors.New("this tool's handler has no dry run")

// DryRun describes what calling tool name with JSON args would do, without
// doing it (`mcpgen call --dry-run`): for an http tool, the exact request
// with secrets masked. Arguments are validated as for a call.
func (s *Server) DryRun(ctx context.Context, name string, args []byte) (string, error) {
	s = s.now()
	t, ok := s.toolIndex[name]
	if !ok {
		return "", errors.New(s.unknownTool(name))
	}
	dr, ok := t.handler.(handlers.DryRunner)
	if !ok {
		return "", ErrNoDryRun
	}
	a, who, err := s.prepare(ctx, t, args)
	if err != nil {
		return "", err
	}
	out, err := dr.DryRun(ctx, &handlers.Call{Args: a, Notify: handlers.Nop{}, Auth: who})
	if err != nil {
		return "", errors.New(s.redact.apply(err.Error()))
	}
	return s.redact.apply(out), nil
}
