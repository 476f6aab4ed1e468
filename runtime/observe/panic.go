package observe

import (
	"fmt"
	"log/slog"
	"runtime/debug"
)

// Panicked records a panic recovered while handling a request for method:
// it is logged once, at error level, with the stack of the goroutine that
// panicked (call it in the deferred function that recovered), and counted
// as mcpgen_panics_total. A panic is a bug in mcpgen or a library it calls;
// the request that met it is answered as an internal error and the server
// goes on.
func Panicked(log *slog.Logger, m *Metrics, method string, v any) {
	if log != nil {
		log.Error("panic while handling a request: answered as an internal error",
			"method", method, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	}
	m.Panic(method)
}
