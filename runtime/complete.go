package runtime

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// completeFrom runs a completion handler for the text typed so far.
func (s *Server) completeFrom(ctx context.Context, h handlers.Handler, value string, given map[string]string) ([]string, error) {
	ctxArgs := map[string]any{}
	for k, v := range given {
		ctxArgs[k] = v
	}
	call := &handlers.Call{Args: map[string]any{"value": value, "context": ctxArgs}, Notify: handlers.Nop{}}
	values, err := runCompleter(ctx, h, call)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "completion failed: " + s.plan.Redact.Apply(err.Error())}
	}
	return values, nil
}

func runCompleter(ctx context.Context, h handlers.Handler, call *handlers.Call) ([]string, error) {
	if c, ok := h.(handlers.Completer); ok {
		return c.Complete(ctx, call)
	}
	res, err := h.Call(ctx, call)
	if err != nil {
		return nil, err
	}
	text := res.Text()
	if res.IsError {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: text}
	}
	var values []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			values = append(values, line)
		}
	}
	return values, nil
}
