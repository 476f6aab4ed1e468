package shellkind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// handler runs one tool's command.
type handler struct {
	program    string   // a name looked up on the child's PATH, or an absolute path
	fixed      []string // arguments before args: -c SCRIPT mcpgen for a script
	args       []elem
	stdin      *eval.Value // nil: /dev/null
	dir        string
	baseEnv    map[string]string // PATH and env_allow, read when the config was built
	env        []envVar
	timeout    time.Duration
	maxOutput  int64
	pathArgs   []string // arguments confined to dir
	json       bool
	okCodes    []int
	allowFlags bool
	progress   *progressSpec // nil: no progress reports
	redact     func(string) string

	closeOnce sync.Once
	closed    chan struct{} // closed by Close: running commands are killed
}

// elem is one compiled argv element (or script parameter).
type elem struct {
	field     string // e.g. command[2], for messages
	v         *eval.Value
	checkFlag bool     // its value may not start with '-' unless allowFlags
	strict    bool     // ... even with allowFlags: it is before `--` and not a script's
	single    bool     // it is an option's value: a list must have one item
	flags     []string // ... or is one of these, written in its expressions
}

// envVar is one variable of `env`.
type envVar struct {
	name, field string
	v           *eval.Value
}

// invocation is one call's evaluated command.
type invocation struct {
	path  string // absolute path of the program
	argv  []string
	env   []string
	stdin []byte // nil: /dev/null
	// missing says why the program was not found; a stub may still
	// replace it (in `mcpgen test`, on a machine without the program).
	missing error
}

// Call evaluates the command for c's arguments and runs it.
func (h *handler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	if err := h.confine(c.Args); err != nil {
		return nil, err
	}
	inv, err := h.invocation(c.Vars())
	if err != nil {
		return nil, err
	}
	if inv = stubbed(ctx, inv, len(h.fixed) > 0); inv.missing != nil {
		return nil, inv.missing
	}
	runCtx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	_, op := observe.Backend(ctx, observe.KindShell)
	out, err := h.run(runCtx, inv, c.Notify)
	if op != nil {
		code, outcome := h.processOutcome(out, err)
		op.EndProcess(filepath.Base(inv.path), code, outcome)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case out.stopped == stoppedByClose:
		return nil, errors.New("command killed: the server is shutting down")
	case out.stopped == stoppedByContext && ctx.Err() != nil:
		return nil, fmt.Errorf("command canceled: %w", ctx.Err())
	case out.stopped == stoppedByContext:
		return nil, h.withStderr(fmt.Sprintf("command timed out after %v (timeout); its process group was killed", h.timeout), out)
	}
	return h.result(out)
}

// processOutcome sums up a run for metrics: the exit status (-1 when the
// command did not exit by itself) and ok, exit, signal, timeout or error.
func (h *handler) processOutcome(o *outcome, err error) (int, string) {
	switch {
	case err != nil:
		return -1, "error"
	case o.stopped != notStopped:
		return -1, "timeout"
	}
	code, signal, _ := exitStatus(o.state)
	switch {
	case signal != "":
		return -1, "signal"
	case !slices.Contains(h.okCodes, code):
		return code, "exit"
	}
	return code, "ok"
}

// invocation evaluates argv, env and stdin for one call.
func (h *handler) invocation(vars map[string]any) (*invocation, error) {
	inv := &invocation{argv: append([]string{h.program}, h.fixed...)}
	var err error
	if inv.argv, err = h.evalArgs(vars, inv.argv); err != nil {
		return nil, err
	}
	if inv.env, err = h.environ(vars); err != nil {
		return nil, err
	}
	if h.stdin != nil {
		s, err := h.stdin.String(vars, nil)
		if err != nil {
			return nil, fmt.Errorf("stdin: %w", err)
		}
		inv.stdin = []byte(s)
	}
	inv.path, inv.missing = lookPath(h.program, envValue(inv.env, "PATH"))
	return inv, nil
}

// evalArgs appends the evaluated elements to argv: a list spreads, nil is
// an empty argument.
func (h *handler) evalArgs(vars map[string]any, argv []string) ([]string, error) {
	for _, e := range h.args {
		x, err := e.v.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.field, err)
		}
		items, spread := x.([]any)
		if !spread {
			items = []any{x}
		} else if e.single && len(items) != 1 {
			return nil, fmt.Errorf("%s: the value of an option must be one string, got a list of %d",
				e.field, len(items))
		}
		for _, item := range items {
			s := eval.Format(item)
			if err := h.checkArg(e, s); err != nil {
				return nil, err
			}
			argv = append(argv, s)
		}
	}
	return argv, nil
}

// checkArg refuses what a command line cannot carry or would misread.
func (h *handler) checkArg(e elem, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%s: the value holds a NUL byte, which a command line cannot carry", e.field)
	}
	if e.checkFlag && (e.strict || !h.allowFlags) && strings.HasPrefix(s, "-") && !slices.Contains(e.flags, s) {
		return fmt.Errorf("%s: the value %q starts with '-' and could be read as an option, so it is refused; "+
			"pass a value that does not start with '-'", e.field, suggest.Truncate(s, 40))
	}
	return nil
}

// environ builds the child's environment: PATH, env_allow, then env.
func (h *handler) environ(vars map[string]any) ([]string, error) {
	m := make(map[string]string, len(h.baseEnv)+len(h.env))
	for k, v := range h.baseEnv {
		m[k] = v
	}
	for _, e := range h.env {
		x, err := e.v.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.field, err)
		}
		if x == nil {
			delete(m, e.name)
			continue
		}
		s := eval.Format(x)
		if strings.IndexByte(s, 0) >= 0 {
			return nil, fmt.Errorf("%s: the value holds a NUL byte, which an environment variable cannot carry", e.field)
		}
		m[e.name] = s
	}
	env := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		env = append(env, k+"="+m[k])
	}
	return env, nil
}

func envValue(env []string, name string) string {
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// lookPath finds program on path. Unlike a shell it skips relative
// directories of PATH (".", ""), so nothing in the working directory can
// stand in for a program.
func lookPath(program, path string) (string, error) {
	if filepath.IsAbs(program) {
		return program, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, program)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("program %q not found on PATH (%s)", program, path)
}

// Close kills the commands still running and makes later calls fail.
func (h *handler) Close() error {
	h.closeOnce.Do(func() { close(h.closed) })
	return nil
}

var (
	_ handlers.Config  = (*Config)(nil)
	_ handlers.Handler = (*handler)(nil)
	_ io.Closer        = (*handler)(nil)
)
