package handlers

import (
	"context"
	"net/http"
)

// Doubles stand in for what backends reach outside the process while a
// config's tests run (`mcpgen test`): HTTP requests go to a recorder or a
// replayer instead of the network, and shell commands can be replaced by a
// stub that prints given output and exits with a given status. They travel
// on the context of a call, so only code in the same process can set them;
// nothing a client sends can.
type Doubles struct {
	// HTTP, when set, wraps the transport every request of http and
	// graphql backends (token requests included) is sent on: the round
	// tripper it returns may answer from recordings or send the request
	// on next, the backend's own transport (its TLS settings, its proxy).
	HTTP func(next http.RoundTripper) http.RoundTripper
	// Shell, when set, is asked before a shell command starts, with its
	// argv (a script's is the shell, -c, the script, then its parameters);
	// a non-nil Stub replaces the command.
	Shell func(argv []string) *Stub
	// Commands, when set, gives the stubs of the commands a `script` runs,
	// by name (`git`), when no stub replaced its shell: the script defines
	// them as shell functions before its own text, so a command it runs
	// by name runs the stub instead.
	Commands func() map[string]*Stub
}

// Stub is what a stubbed shell command does: it writes Stdout and Stderr
// and exits with ExitCode, through the same pipes, limits and exit-code
// rules as the command it replaces.
type Stub struct {
	Stdout, Stderr string
	ExitCode       int
}

type doublesKey struct{}

// WithDoubles returns ctx carrying d.
func WithDoubles(ctx context.Context, d *Doubles) context.Context {
	return context.WithValue(ctx, doublesKey{}, d)
}

// DoublesFrom returns the Doubles ctx carries, or nil.
func DoublesFrom(ctx context.Context) *Doubles {
	d, _ := ctx.Value(doublesKey{}).(*Doubles)
	return d
}

// Transport returns the round tripper requests made under ctx go through:
// rt wrapped by the Doubles' HTTP when ctx carries one, else rt.
func Transport(ctx context.Context, rt http.RoundTripper) http.RoundTripper {
	if d := DoublesFrom(ctx); d != nil && d.HTTP != nil {
		return d.HTTP(rt)
	}
	return rt
}
