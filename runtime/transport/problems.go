package transport

import (
	"context"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// ProblemsLogger is the logger name of the messages that tell a stdio client
// what keeps the server from serving (StdioOptions.Problems).
const ProblemsLogger = "mcpgen"

// tellProblems sends each problem that problems returns to the client as an
// error log message, once the client has sent notifications/initialized:
// desktop clients show a server's log messages, never its stderr. They are
// sent whatever level the client set, as it may set none before it is told.
// problems runs on its own goroutine (it may wait for a database to answer),
// under ctx, which ends with the session.
func tellProblems(ctx context.Context, problems func(context.Context) []string) mcp.Middleware {
	var once sync.Once
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(rctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(rctx, method, req)
			if method != "notifications/initialized" {
				return res, err
			}
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
				once.Do(func() { go sendProblems(ctx, ss, problems) })
			}
			return res, err
		}
	}
}

func sendProblems(ctx context.Context, ss *mcp.ServerSession, problems func(context.Context) []string) {
	for _, p := range problems(ctx) {
		if ctx.Err() != nil {
			return
		}
		_ = ss.SendNotification(ctx, "notifications/message",
			&mcp.LoggingMessageParams{Level: "error", Logger: ProblemsLogger, Data: p})
	}
}
