package shellkind

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// stubScript prints its first two parameters to stdout and stderr and exits
// with the third: a stub runs through the same pipes, limits, progress and
// exit-code rules as the command it replaces.
const stubScript = `printf '%s' "$1"; printf '%s' "$2" >&2; exit "$3"`

// stubbed returns the invocation to run for inv: a stub's when the
// context's Doubles replace it (in `mcpgen test`), else inv itself.
func stubbed(ctx context.Context, inv *invocation, script bool) *invocation {
	d := handlers.DoublesFrom(ctx)
	if d == nil || d.Shell == nil {
		return inv
	}
	st := d.Shell(inv.argv)
	if st == nil && script && d.Commands != nil {
		return withCommandStubs(inv, d.Commands())
	}
	if st == nil {
		return inv
	}
	return &invocation{path: "/bin/sh", env: inv.env,
		argv: []string{"sh", "-c", stubScript, "stub", st.Stdout, st.Stderr, strconv.Itoa(st.ExitCode)}}
}

// withCommandStubs returns a script's invocation (shell, -c, SCRIPT, ...)
// with a shell function for each stubbed command defined before the
// script's text; what the function prints comes from the environment, so
// no stub text is parsed as code. A name that cannot be a function's
// (`docker-compose`) is left out.
func withCommandStubs(inv *invocation, stubs map[string]*handlers.Stub) *invocation {
	if len(stubs) == 0 || len(inv.argv) < 3 || inv.argv[1] != "-c" {
		return inv
	}
	var prelude strings.Builder
	env := slices.Clone(inv.env)
	for i, name := range slices.Sorted(maps.Keys(stubs)) {
		if !envName.MatchString(name) {
			continue
		}
		st := stubs[name]
		fmt.Fprintf(&prelude, "%s() { printf '%%s' \"$MCPGEN_STUB_OUT_%d\"; printf '%%s' \"$MCPGEN_STUB_ERR_%d\" >&2; return %d; }\n",
			name, i, i, st.ExitCode)
		env = append(env, fmt.Sprintf("MCPGEN_STUB_OUT_%d=%s", i, st.Stdout), fmt.Sprintf("MCPGEN_STUB_ERR_%d=%s", i, st.Stderr))
	}
	out := *inv
	out.argv = slices.Clone(inv.argv)
	out.argv[2] = prelude.String() + inv.argv[2]
	out.env = env
	return &out
}
