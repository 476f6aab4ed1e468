package configtest

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// tapTransport keeps the log and progress notifications the client reads,
// as it reads them: they come before the response of the call that sent
// them, whereas the client's handlers may run after it.
type tapTransport struct {
	mcp.Transport
	out *outcome
}

// Connect connects the transport and taps what it reads.
func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &tapConn{Connection: c, out: t.out}, nil
}

type tapConn struct {
	mcp.Connection
	out *outcome
}

// Read reads the next message, noting notifications.
func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if r, ok := m.(*jsonrpc.Request); ok && !r.ID.IsValid() {
		c.out.note(r.Method, r.Params)
	}
	return m, err
}

func (out *outcome) note(method string, params json.RawMessage) {
	out.mu.Lock()
	defer out.mu.Unlock()
	switch method {
	case "notifications/message":
		var p mcp.LoggingMessageParams
		if json.Unmarshal(params, &p) == nil {
			out.logs = append(out.logs, &p)
		}
	case "notifications/progress":
		out.progress++
	}
}
