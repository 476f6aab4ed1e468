package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/spec/suggest"
)

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1 // a config or call error
	exitUsage = 2 // the command line is wrong
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, io stdio) int
}

// stdio is the process's standard streams.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

func commands() []command {
	return []command{
		{"init", "write a starter config and its tests, and print client snippets", runInit},
		{"serve", "serve a config over stdio or Streamable HTTP", runServe},
		{"dev", "serve a config with live reload and a web page to try its tools", runDev},
		{"validate", "check configs and report every problem", runValidate},
		{"call", "call one tool and print its result", runCall},
		{"test", "run the behaviour tests of configs (NAME.test.yaml, or tests: in a config)", runTest},
		{"schema", "print the JSON Schema of the config file", runSchema},
		{"import", "write a config from an API description (openapi, graphql)", runImport},
		{"client-config", "print what to add to a client's configuration to use a config", runClientConfig},
		{"pack", "bundle configs for desktop clients (MCPB) or the MCP registry", runPack},
		{"soak", "call a tool over HTTP at a fixed rate for minutes; report memory, goroutines, p99", runSoak},
		{"version", "print the version, commit and build date", runVersion},
	}
}

// run is mcpgen's main, testable: it returns the exit status.
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	std := stdio{in: in, out: out, err: errw}
	if len(args) == 0 {
		usage(errw)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		usage(out)
		return exitOK
	}
	var names []string
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], std)
		}
		names = append(names, c.name)
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if hint := suggest.DidYouMean(name, names); hint != "" {
		msg += "; " + hint
	}
	return usageError(errw, "", msg)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "mcpgen serves an MCP server described in YAML.")
	fmt.Fprintln(w, "\nUsage:\n  mcpgen <command> [flags] [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'mcpgen <command> -h' for a command's flags.")
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

// parseFlags parses fs from args, allowing flags after positional
// arguments, and returns the positional arguments. done is true when the
// command should stop with status: after -h (help printed, 0) or after a
// usage error (reported, 2).
func parseFlags(fs *flag.FlagSet, args []string, std stdio) (pos []string, status int, done bool) {
	fs.SetOutput(io.Discard)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(std.out)
				fmt.Fprintf(std.out, "Usage: mcpgen %s\n\nFlags:\n", fs.Name())
				fs.PrintDefaults()
				return nil, exitOK, true
			}
			name := strings.Fields(fs.Name())[0]
			return nil, usageError(std.err, name, err.Error()), true
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, false
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
