//go:build !unix

package shellkind

import (
	"context"
	"errors"
	"os"

	"github.com/mcpgen/mcpgen/handlers"
)

// run is not available here: mcpgen relies on Unix process groups to kill
// a command with everything it started.
func (h *handler) run(context.Context, *invocation, handlers.Notifier) (*outcome, error) {
	return nil, errors.New("shell tools need a Unix system (Linux, macOS, BSD)")
}

func exitStatus(state *os.ProcessState) (int, string, bool) {
	return state.ExitCode(), "", false
}
