package transport

import (
	"context"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// incoming puts what the HTTP request brought on the context of the
// request's handler: the authenticated caller (auth.CallerFrom) and the
// request's headers, minus credentials (handlers.IncomingHeader). The
// go-sdk runs handlers on the session's context, not the request's; it
// hands both over in RequestExtra. A caller already on the context (an
// in-process transport) is kept.
func incoming(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		extra := req.GetExtra()
		if extra == nil {
			return next(ctx, method, req)
		}
		if c := auth.CallerFromTokenInfo(extra.TokenInfo); c != nil && auth.CallerFrom(ctx) == nil {
			ctx = auth.WithCaller(ctx, c)
		}
		return next(handlers.WithIncomingHeader(ctx, extra.Header), method, req)
	}
}
