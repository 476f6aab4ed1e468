package shellkind

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"gopkg.in/yaml.v3"
)

// envName is what a portable environment variable name looks like.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Build checks the configuration and compiles its expressions.
func (c *Config) Build(env handlers.BuildEnv) handlers.Handler {
	h := &handler{
		timeout:    durationOr(c.Timeout, DefaultTimeout),
		maxOutput:  int64(c.MaxOutput),
		json:       c.Output == "json",
		okCodes:    c.OkExitCodes,
		allowFlags: c.AllowFlags,
		redact:     env.Redact,
		closed:     make(chan struct{}),
	}
	if h.maxOutput <= 0 {
		h.maxOutput = DefaultMaxOutput
	}
	if len(h.okCodes) == 0 {
		h.okCodes = []int{0}
	}
	c.checkShape(env)
	c.program(env, h)
	c.buildEnv(env, h)
	c.checkLimits(env)
	c.checkCodeOptions(env)
	c.checkPathArgs(env, h)
	h.progress = c.buildProgress(env)
	h.dir = c.workDir(env)
	if !c.Stdin.IsZero() {
		h.stdin = env.Compile("stdin", c.Stdin, nil)
	}
	if env.Failed() {
		return nil
	}
	h.warnMissing(env)
	return h
}

func durationOr(d spec.Duration, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return time.Duration(d)
}

// checkShape reports settings that do not fit the handler's program.
func (c *Config) checkShape(env handlers.BuildEnv) {
	switch { // the loader checked that exactly one of command and script is given
	case len(c.Command) == 0 && c.Script == "":
		env.Diag("command", "a shell handler needs a command (a list: [program, arg, ...]) or a script")
	case c.Script == "" && len(c.Params) > 0:
		env.Diag("params", "params are the positional parameters of a script; with command, write the values in command")
	case c.Script == "" && c.Shell != "":
		env.Diag("shell", "shell runs a script; this handler has a command")
	case strings.Contains(c.Script, eval.Open):
		env.Diag("script", "a script is static text and cannot hold ${{ expressions }}; "+
			`pass arguments in params (read them as "$1") or env (read them as "$NAME")`)
	}
}

// program compiles the argv: the command's, or the shell's running the
// script with params.
func (c *Config) program(env handlers.BuildEnv, h *handler) {
	if c.Script != "" {
		h.program = fixedProgram(env, "shell", cmp.Or(c.Shell, "sh"))
		h.fixed = []string{"-c", c.Script, "mcpgen"}
		h.args = compileElems(env, "params", c.Params, false)
		return
	}
	if len(c.Command) == 0 {
		return // reported by checkShape
	}
	first := c.Command[0].Node
	if first == nil || first.Kind != yaml.ScalarNode {
		env.Diag("command[0]", "the program must be a name or a path")
		return
	}
	h.program = fixedProgram(env, "command[0]", first.Value)
	h.args = compileElems(env, "command", c.Command[1:], true)
	if !env.Failed() && h.args != nil {
		checkPlacement(env, c.Command, h.args, h.program, c.CodeOptions)
	}
}

// fixedProgram checks a program written in the config and makes a path
// absolute (relative to the config file).
func fixedProgram(env handlers.BuildEnv, field, name string) string {
	switch {
	case name == "":
		env.Diag(field, "the program must be a name or a path")
		return ""
	case strings.Contains(name, eval.Open):
		env.Diag(field, "the program is fixed text: arguments cannot choose what runs")
		return ""
	case strings.ContainsRune(name, '/'):
		return absPath(env.Path(name))
	}
	return name
}

// compileElems compiles argv elements; offset numbering starts at 1 for
// command (its element 0 is the program) and 0 for params.
func compileElems(env handlers.BuildEnv, field string, vals []spec.Value, command bool) []elem {
	elems := make([]elem, 0, len(vals))
	afterDashes := false
	for i := range vals {
		idx := i
		if command {
			idx++
		}
		e := elem{field: fmt.Sprintf("%s[%d]", field, idx)}
		n := vals[i].Node
		if n == nil || n.Kind != yaml.ScalarNode {
			env.Diag(e.field, "expected a single value (a string, number or ${{ expression }})")
			continue
		}
		e.v = env.Compile(e.field, &vals[i], nil)
		if e.v == nil {
			continue
		}
		e.checkFlag = !afterDashes && !e.v.IsConst() && !strings.HasPrefix(n.Value, "-")
		if e.checkFlag {
			e.flags = writtenFlags(n.Value)
		}
		afterDashes = afterDashes || (command && e.v.IsConst() && n.Value == "--")
		elems = append(elems, e)
	}
	return elems
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// buildEnv checks env_allow and env and compiles env's values.
func (c *Config) buildEnv(env handlers.BuildEnv, h *handler) {
	h.baseEnv = map[string]string{"PATH": DefaultPath}
	if p, found := os.LookupEnv("PATH"); found && p != "" {
		h.baseEnv["PATH"] = p
	}
	for i, name := range c.EnvAllow {
		if !envName.MatchString(name) {
			env.Diag(fmt.Sprintf("env_allow[%d]", i), fmt.Sprintf("%q is not a variable name", name))
		} else if v, found := os.LookupEnv(name); found {
			h.baseEnv[name] = v
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Env)) {
		field := "env." + name
		if !envName.MatchString(name) {
			env.Diag(field, fmt.Sprintf("%q is not a variable name: use letters, digits and '_'", name))
			continue
		}
		v := c.Env[name]
		ev := env.Compile(field, &v, nil)
		if ev != nil {
			h.env = append(h.env, envVar{name: name, field: field, v: ev})
		}
	}
}

// checkLimits reports impossible exit codes. (The decoder checks output
// against its enum.)
func (c *Config) checkLimits(env handlers.BuildEnv) {
	for i, code := range c.OkExitCodes {
		if code < 0 || code > 255 {
			env.Diag(fmt.Sprintf("ok_exit_codes[%d]", i), fmt.Sprintf("%d is not an exit status (0 to 255)", code))
		}
	}
}

// checkCodeOptions checks that code_options names options.
func (c *Config) checkCodeOptions(env handlers.BuildEnv) {
	for i, o := range c.CodeOptions {
		if !isOption(o) {
			env.Diag(fmt.Sprintf("code_options[%d]", i), fmt.Sprintf("%q is not an option: write it as the "+
				"program takes it, such as -x or --script", o))
		}
	}
	if len(c.CodeOptions) > 0 && c.Script != "" {
		env.Diag("code_options", "code_options name options of a command's program; this handler has a script")
	}
}

// workDir resolves dir, warning when it is not a directory now (validate
// may run on a machine other than the server's).
func (c *Config) workDir(env handlers.BuildEnv) string {
	dir := absPath(env.Path(cmp.Or(c.Dir, ".")))
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		env.Warn("dir", fmt.Sprintf("%s is not a directory here", dir))
	}
	return dir
}

// warnMissing warns about a program not found now; validate may run on a
// machine other than the server's, so this is not an error.
func (h *handler) warnMissing(env handlers.BuildEnv) {
	field := "command[0]"
	if len(h.fixed) > 0 {
		field = "shell"
	}
	path := h.baseEnv["PATH"]
	for _, e := range h.env {
		if e.name == "PATH" {
			return // known only per call
		}
	}
	if _, err := lookPath(h.program, path); err != nil {
		env.Warn(field, err.Error())
	}
}
