package shellkind

import (
	"context"
	"strconv"

	"github.com/mcpgen/mcpgen/handlers"
)

// stubScript prints its first two parameters to stdout and stderr and exits
// with the third: a stub runs through the same pipes, limits, progress and
// exit-code rules as the command it replaces.
const stubScript = `printf '%s' "$1"; printf '%s' "$2" >&2; exit "$3"`

// stubbed returns the invocation to run for inv: a stub's when the
// context's Doubles replace it (in `mcpgen test`), else inv itself.
func stubbed(ctx context.Context, inv *invocation) *invocation {
	d := handlers.DoublesFrom(ctx)
	if d == nil || d.Shell == nil {
		return inv
	}
	st := d.Shell(inv.argv)
	if st == nil {
		return inv
	}
	return &invocation{path: "/bin/sh", env: inv.env,
		argv: []string{"sh", "-c", stubScript, "stub", st.Stdout, st.Stderr, strconv.Itoa(st.ExitCode)}}
}
