// Package shellkind runs a tool as a local command: an argv array whose elements
// may hold ${{ expressions }} over the arguments, or a static script that
// receives the arguments as positional parameters and environment variables.
// Nothing an argument carries is ever parsed by a shell.
//
// Every command runs with a clean environment (PATH plus an allow-list), in a
// fixed working directory, with stdin from /dev/null unless the config gives
// one, its stdout captured up to a cap and never reaching the server's own
// stdout, and in a process group of its own that is killed whole when the
// call is canceled, times out or the command exits. On Linux it also dies
// with mcpgen (the parent-death signal) and, where the system allows PID
// namespaces, is the first process of one of its own, so that what it
// started dies with it even after leaving the group (setsid).
package shellkind

import (
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

// Defaults for the limits a config leaves out.
const (
	DefaultTimeout   = 30 * time.Second
	DefaultMaxOutput = 1 << 20
	// DefaultPath is the child's PATH when the server has none.
	DefaultPath = "/usr/local/bin:/usr/bin:/bin"
)

// Config is the `handler:` of a tool of kind shell: a `command` or a
// `script`.
type Config struct {
	// Command is the program and its arguments as a list, run directly
	// without a shell: `[grep, -n, --, "${{ args.pattern }}", "${{
	// args.path }}"]`. The first element, the program, is literal text: a
	// name looked up on the child's PATH, or a path (relative paths are
	// relative to the config file). Where an argument may go depends on
	// what it can hold: one declared as an integer, number, boolean, an
	// enum (no value starting with '-') or a string whose anchored
	// `pattern` allows only letters, digits and -_.:/@+,% and no leading
	// '-' may fill any element (a pattern-bound string none that is
	// program text or a command: `sh -c X`, `python3 -c X`, after `-e`,
	// `--eval`, find's `-exec`, of xargs or env, or in code_options). Any
	// other string may fill an element that is exactly one ${{ expression
	// }} where it is data: the value of a literal option (`[kubectl, get,
	// pods, -n, "${{ args.namespace }}"]`, or `--author=${{ args.author
	// }}` as one element), an operand of a program that reads operands as
	// data (grep, ls, echo...) or of a script given by its path, anything
	// after a literal `--` such a program reads, or `python3 -c PROGRAM`'s
	// sys.argv. Before `--`, such a value starting with '-' is refused
	// when called. `validate` refuses the rest, naming the fix. An element
	// that is exactly one expression yielding a list becomes one argument
	// per item (an empty list, none: write `${{ args.path ?? [] }}` to
	// leave out an optional argument); yielding nothing (an argument not
	// passed), it becomes an empty argument, so the positions of the
	// others never shift.
	Command []spec.Value `yaml:"command,omitempty" mcpgen:"exactly_one=program"`
	// Script is a static shell script, run as `sh -c SCRIPT mcpgen PARAM...`
	// with the same stdin, environment, directory and limits as a command.
	// It cannot hold ${{ expressions }}: it reads the arguments from its
	// positional parameters ("$1", "$@", from `params`) and from variables
	// set in `env`, so no argument is ever parsed as shell code (quote them:
	// "$1", not $1). mcpgen expands ${VAR} in config text when it loads, so
	// write $VAR or "$1" in a script, or $${VAR} for a literal ${VAR}.
	Script string `yaml:"script,omitempty" mcpgen:"exactly_one=program"`
	// Shell runs `script`: a POSIX-style shell that takes `-c SCRIPT NAME
	// ARGS...`, such as sh, bash, dash or zsh. Defaults to sh.
	Shell string `yaml:"shell,omitempty"`
	// Params are the positional parameters of `script` ($1, $2, ...), each a
	// value that may be a ${{ expression }}; a list spreads into several
	// parameters, as in `command`.
	Params []spec.Value `yaml:"params,omitempty"`
	// CodeOptions names options of the command's program that take program
	// text or a command as their value, such as `[--script]` for a program
	// of yours run as `mytool --script CODE`. mcpgen knows those of the
	// programs everyone knows (-c, -e, --eval, find's -exec...); it takes
	// the element after any other literal option to be a value (data), so
	// an argument could fill it. After an option named here, only a
	// number, a boolean or an enum's value may.
	CodeOptions []string `yaml:"code_options,omitempty"`
	// AllowFlags lets a computed value that starts with '-' reach a
	// script's params. By default such a value is refused (the call fails)
	// unless it comes after a literal `--` in `command`, where programs
	// stop reading options, or it is a string written in the element's own
	// expression, as `-i` in `${{ args.ignore_case ? ['-i'] : [] }}`. In
	// `command`, an option's value and an operand before `--` are always
	// checked, allow_flags or not.
	AllowFlags bool `yaml:"allow_flags,omitempty"`
	// Stdin is the command's standard input, a value that may be a ${{
	// expression }}: a string as it is, anything else as JSON
	// (`"${{ args }}"` sends all the arguments). Without it the command
	// reads /dev/null.
	Stdin *spec.Value `yaml:"stdin,omitempty"`
	// Dir is the working directory, absolute or relative to the config
	// file. Defaults to the config file's directory. It is fixed text:
	// arguments cannot choose it.
	Dir string `yaml:"dir,omitempty"`
	// PathArgs names the arguments that are paths inside `dir`, such as
	// a file to read or a directory to list: `[path]`, or `[files]` for a
	// list of paths. A call is refused before the command runs when such
	// a value (or an item of the list) is an absolute path, holds a `..`
	// segment, or leads out of `dir` through a symbolic link, as file
	// resources are confined to their root. Nothing is rewritten: a path
	// is accepted as it is or refused.
	PathArgs []string `yaml:"path_args,omitempty"`
	// EnvAllow names variables of the server's environment passed through to
	// the command, e.g. [HOME, LANG]. The command sees nothing else but PATH
	// (the server's, or /usr/local/bin:/usr/bin:/bin when it has none) and
	// `env`.
	EnvAllow []string `yaml:"env_allow,omitempty"`
	// Env sets variables for the command: `NAME: value`, where the value may
	// be a ${{ expression }} over `args` (a non-string value is passed as
	// JSON; one yielding nothing leaves the variable unset). These win over
	// `env_allow` and may replace PATH.
	Env map[string]spec.Value `yaml:"env,omitempty"`
	// Timeout bounds a call; the command's whole process group is killed
	// when it expires. Defaults to 30s.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
	// MaxOutput is the most bytes of stdout kept. Past it, mcpgen stops
	// reading (the command gets a broken pipe) and the result ends with a
	// note saying the output was truncated. Defaults to 1MiB.
	MaxOutput spec.Size `yaml:"max_output,omitempty"`
	// Output says how to read stdout: `text` (the default) returns it as
	// text; `json` parses it as one JSON value, returned as structured
	// content (a value that is not an object is wrapped as {"result":
	// value}), so `output_schema` and `content` templates can use it.
	Output string `yaml:"output,omitempty" jsonschema:"enum=text,enum=json"`
	// OkExitCodes are the exit statuses that mean success. Defaults to [0].
	// grep, for example, exits 1 when nothing matches: [0, 1] makes that an
	// empty result rather than an error. Any other status makes an error
	// result holding the status and the end of stderr.
	OkExitCodes []int `yaml:"ok_exit_codes,omitempty"`
	// Progress reports how far the command has got while it runs, when the
	// client asked for progress (with a progress token), read from its
	// output line by line: `{lines: true}` counts lines, `{pattern:
	// '(?P<done>\d+)/(?P<total>\d+)'}` reads the numbers from lines that
	// match. A line ends at a
	// newline or a carriage return (as progress bars redraw); blank lines
	// are skipped. Each report carries its line (trimmed, at most 200
	// bytes, secrets redacted) as the message. When the client is slower
	// than the command, the reports it has not taken yet are merged so that
	// the command never waits; the latest still arrives. Without
	// `progress`, a shell tool reports no progress.
	Progress *Progress `yaml:"progress,omitempty"`
}

// Progress says how to read a command's progress from its output.
type Progress struct {
	// Lines makes each line a step: progress is the number of lines so
	// far, e.g. for a command that prints one line per item it handled.
	Lines bool `yaml:"lines,omitempty" mcpgen:"exactly_one=source"`
	// Pattern is a regular expression (Go syntax, RE2) matched against
	// each line; lines that do not match are not progress. Its named group
	// `done` (required) is the progress so far and `total` (optional) the
	// total, both numbers: `(?P<done>\d+)/(?P<total>\d+)` reads "3/10",
	// `(?P<done>[\d.]+)%` reads "42.5%" (with `total: 100`).
	Pattern string `yaml:"pattern,omitempty" mcpgen:"exactly_one=source"`
	// From is the stream read: `stdout` or `stderr`. Defaults to stdout
	// with `lines` and to stderr with `pattern`, where programs write
	// their progress to keep it out of their result. stdout past
	// `max_output` is not read, so it reports nothing more; stderr lines
	// are still sent as debug logs as well.
	From string `yaml:"from,omitempty" jsonschema:"enum=stdout,enum=stderr"`
	// Total is the total when the output does not give one (`lines`, or a
	// pattern without a `total` group), e.g. 100 for a percentage. Leave
	// it out when the total is not known.
	Total float64 `yaml:"total,omitempty"`
}

// Kind is the shell backend kind.
func Kind() handlers.Kind {
	return handlers.Kind{
		Name:      "shell",
		Doc:       "Runs a local command (an argv array or a static script) with the arguments as separate argv elements, never parsed by a shell.",
		NewConfig: func() handlers.Config { return &Config{} },
	}
}
