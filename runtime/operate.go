package runtime

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/limits"
)

// What happens around a tool call besides running it (operate.go,
// observe.go): the result cache, then the tool's and its backend's
// concurrency limits (bulkheads; both in package runtime/limits), then the
// call (toolcall.go), whose rate limits are checked first.

// operateMiddleware answers tools/call from the cache when it can, and
// holds a slot of the tool's and its backend's concurrency limits while
// the call runs. It runs inside callerMiddleware: a caller refused for
// its scopes never reaches the cache.
func (s *Server) operateMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		t := s.plan.ToolIndex[r.Params.Name]
		if t == nil || t.Cache == nil && t.Slots == nil && s.plan.Limits.Backends[t.Backend] == nil {
			return next(ctx, method, req)
		}
		m := s.plan.Obs.Metrics
		var key string
		if t.Cache != nil {
			key = limits.CacheKey(ctx, t.Def.Name, t.Cache, r.Params.Arguments)
			if res := s.plan.Limits.Cached(ctx, m, t.Def.Name, key); res != nil {
				return res, nil
			}
		}
		release, busy := s.plan.Limits.TakeSlots(ctx, m, t.Def.Name, t.Backend, t.Slots)
		if busy != "" {
			return errorResult(busy), nil
		}
		defer release()
		res, err := next(ctx, method, req)
		if t.Cache != nil && err == nil {
			s.plan.Limits.Keep(ctx, t.Cache, key, res)
		}
		return res, err
	}
}
