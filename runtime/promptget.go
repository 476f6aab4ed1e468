package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// getPrompt answers prompts/get: the prompt's messages rendered with the
// request's arguments, defaults applied.
func (s *Server) getPrompt(_ context.Context, p *prompt, given map[string]string) (*mcp.GetPromptResult, error) {
	args := map[string]any{}
	var missing []string
	for _, a := range p.args {
		v, ok := given[a.Name]
		switch {
		case ok:
			args[a.Name] = v
		case a.Required:
			missing = append(missing, a.Name)
		default:
			args[a.Name] = a.Default
		}
	}
	if len(missing) > 0 {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("prompt %q: missing required arguments: %s", p.def.Name, strings.Join(missing, ", "))}
	}
	content, err := s.render(p.messages, map[string]any{"args": args})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: s.redact.apply(err.Error())}
	}
	res := &mcp.GetPromptResult{Description: p.def.Description}
	for i, c := range content {
		res.Messages = append(res.Messages, &mcp.PromptMessage{Role: p.roles[i], Content: c})
	}
	return res, nil
}
