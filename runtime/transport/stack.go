package transport

import (
	"context"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// callStack is the stack a backend call is given at once. A SQLite query
// reaches about 20 KiB deep (its VM is generated Go with large frames), so
// its goroutine ends at 32 KiB, the size a frame of callStack grows it to.
const callStack = 16 << 10

// presized grows the stack of the goroutine that serves a tools/call or a
// resources/read before the call goes deep. The go-sdk starts a goroutine
// for each request, with the smallest stack; Go grows a stack by doubling
// it and copying every frame on it, so a call that goes deep paid three or
// four copies, each walking the frame tables of everything below it: a
// fifth of the instructions of a SQLite tools/call over stdio. Grown here,
// with a few frames on the stack, it is copied once and cheaply.
func presized(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" || method == "resources/read" {
			growStack()
		}
		return next(ctx, method, req)
	}
}

// growStack has a frame of callStack bytes: calling it grows the stack to
// hold it, in one copy.
//
//go:noinline
func growStack() {
	var frame [callStack]byte
	keep(&frame)
}

// keep makes its caller's frame real: the array's address leaves the
// caller (but not the stack, as escape analysis sees).
//
//go:noinline
func keep(*[callStack]byte) {}

var _ mcp.Middleware = presized
