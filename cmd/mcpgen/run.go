package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpgen/mcpgen/spec/suggest"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // a config or call error
	exitUsage = 2 // the command line is wrong
)

// stdio is the process's standard streams.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// body is what a command does once its flags are parsed: it gets the
// positional arguments and returns the exit status.
type body func(ctx context.Context, pos []string, std stdio) int

// exitStatus carries a command's non-zero exit status through cobra, which
// passes errors up; it has been reported already.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// usageErr is a command-line mistake found before a command's body ran.
type usageErr struct{ msg string }

func (e usageErr) Error() string { return e.msg }

// newCommand declares a subcommand: use is its usage line after "mcpgen",
// short its one-line summary, run its body.
func newCommand(use, short string, run body) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ArbitraryArgs, // each body checks its own arguments
		RunE: func(cmd *cobra.Command, pos []string) error {
			std := stdio{in: cmd.InOrStdin(), out: cmd.OutOrStdout(), err: cmd.ErrOrStderr()}
			if status := run(cmd.Context(), pos, std); status != exitOK {
				return exitStatus(status)
			}
			return nil
		},
	}
}

// logLevels are the values of --log-level.
var logLevels = []string{"debug", "info", "warn", "error"}

// completeWords makes the shell complete the flag name of cmd with words.
func completeWords(cmd *cobra.Command, name string, words ...string) {
	cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp))
}

//go:generate go test -run ^TestManPages$ -update

// rootCommand declares mcpgen and every subcommand: the one definition that
// parsing, help, shell completion and the man pages are made from. std are
// the streams commands write to.
func rootCommand(std stdio) *cobra.Command {
	root := &cobra.Command{
		Use:   "mcpgen",
		Short: "serve an MCP server described in YAML",
		Long: `mcpgen serves an MCP server described in YAML.

Exit status: 0 ok, 1 a config or call error, 2 a usage error.`,
		Args:              cobra.ArbitraryArgs, // unknown commands get our own message
		RunE:              pickSubcommand("command"),
		SilenceErrors:     true,
		SilenceUsage:      true,
		DisableAutoGenTag: true,
	}
	root.AddCommand(initCommand(), serveCommand(), devCommand(), validateCommand(), callCommand(), testCommand(),
		schemaCommand(), importCommand(), clientConfigCommand(), packCommand(), soakCommand(), versionCommand())
	root.SetFlagErrorFunc(flagError)
	root.SetUsageTemplate(usageTemplate)
	root.SetIn(std.in)
	root.SetOut(std.out)
	root.SetErr(std.err)
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd() // after SetOut: it keeps the writer it finds
	for _, c := range root.Commands() {
		c.DisableAutoGenTag = true
		switch c.Name() {
		case "help":
			c.Short = "print the help of mcpgen or of a command"
		case "completion":
			c.Short = "print a script that completes mcpgen's commands and flags in bash, zsh, fish or powershell"
			c.Args, c.RunE = cobra.ArbitraryArgs, pickSubcommand("shell")
			c.Annotations = subcommands("shell", "Shells")
		}
	}
	return root
}

// usageTemplate is cobra's, with mcpgen's wording: one usage line,
// "Commands:", and where to read a command's flags.
const usageTemplate = `Usage:
  {{if .HasParent}}{{.UseLine}}{{else}}{{.CommandPath}} <command> [flags] [arguments]{{end}}{{if .HasAvailableSubCommands}}

{{or (index .Annotations "subcommands") "Commands"}}:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasAvailableSubCommands}}

Run '{{.CommandPath}} <{{or (index .Annotations "subcommand") "command"}}> -h' for its flags.{{end}}
`

// run is mcpgen's main, testable: it returns the exit status.
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	root := rootCommand(stdio{in: in, out: out, err: errw})
	root.SetArgs(args)
	if cmd, _, err := root.Find(args); err == nil {
		if msg := singleDash(cmd, args); msg != "" {
			return usageError(errw, commandName(cmd), msg)
		}
	}
	cmd, err := root.ExecuteContextC(ctx)
	var st exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return int(st)
	}
	return usageError(errw, commandName(cmd), err.Error())
}

// commandName is cmd's path without "mcpgen", as "Try: mcpgen NAME -h" needs.
func commandName(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// pickSubcommand is the action of a command that only holds subcommands
// (what they are to the user): without one it prints its usage on stderr
// (exit status 2), and it reports one it does not have.
func pickSubcommand(what string) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			cmd.SetOut(cmd.ErrOrStderr())
			cmd.Help()
			return exitStatus(exitUsage)
		}
		return unknownCommand(cmd, args[0], what)
	}
}

// subcommands are the annotations that name what a command's subcommands
// are, one and many, in its usage.
func subcommands(one, many string) map[string]string {
	return map[string]string{"subcommand": one, "subcommands": many}
}

// unknownCommand reports name, which is no subcommand of parent, with the
// nearest one; what is what parent's subcommands are to the user.
func unknownCommand(parent *cobra.Command, name, what string) error {
	var names []string
	for _, c := range parent.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if parent.HasParent() {
		msg += fmt.Sprintf("; known %ss: %s", what, strings.Join(names, ", "))
	}
	if hint := suggest.DidYouMean(name, names); hint != "" {
		msg += "; " + hint
	}
	return usageErr{msg}
}

// flagError words pflag's errors the way mcpgen's other messages are, with
// the nearest flag for an unknown one.
func flagError(cmd *cobra.Command, err error) error {
	var notExist *pflag.NotExistError
	if !errors.As(err, &notExist) || notExist.GetSpecifiedShortnames() != "" {
		return usageErr{err.Error()}
	}
	name := notExist.GetSpecifiedName()
	msg := fmt.Sprintf("unknown flag --%s", name)
	if hint := suggest.DidYouMean(name, flagNames(cmd)); hint != "" {
		// did you mean "format"? → did you mean --format?
		msg += "; " + strings.ReplaceAll(strings.Replace(hint, `"`, "--", 1), `"`, "")
	}
	return usageErr{msg}
}

// flagNames are the long names of cmd's flags, help included.
func flagNames(cmd *cobra.Command) []string {
	names := []string{"help"}
	cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	return names
}

// singleDash finds a long flag written with one dash (-http), which Go's
// flag package read but pflag would take for shorthands (-h -t -t -p), and
// says how to write it. Arguments after "--" are left alone.
func singleDash(cmd *cobra.Command, args []string) string {
	known := flagNames(cmd)
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) < 3 || a[0] != '-' || a[1] == '-' {
			continue
		}
		name, _, _ := strings.Cut(a[1:], "=")
		for _, k := range known {
			if k == name && len(k) > 1 {
				return fmt.Sprintf("%s is not a flag; did you mean --%s?", a, strings.TrimPrefix(a, "-"))
			}
		}
	}
	return ""
}

// usageError reports a command-line mistake and returns exitUsage.
func usageError(w io.Writer, cmd, msg string) int {
	fmt.Fprintf(w, "mcpgen: %s\n", msg)
	if cmd == "" {
		fmt.Fprintln(w, "Try: mcpgen help")
	} else {
		fmt.Fprintf(w, "Try: mcpgen %s -h\n", cmd)
	}
	return exitUsage
}
