package transport

import (
	"context"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// incoming puts the HTTP request's headers, minus credentials, on the
// context of the request's handler (handlers.IncomingHeader): the go-sdk
// runs handlers on the session's context, not the request's, and hands the
// headers over in RequestExtra. The caller is put there by the server
// itself, from the request's TokenInfo.
func incoming(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if extra := req.GetExtra(); extra != nil {
			ctx = handlers.WithIncomingHeader(ctx, extra.Header)
		}
		return next(ctx, method, req)
	}
}
