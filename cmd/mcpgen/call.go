package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
)

// argFlags collects repeated --arg name=value flags.
type argFlags []string

func (a *argFlags) String() string     { return strings.Join(*a, " ") }
func (a *argFlags) Set(s string) error { *a = append(*a, s); return nil }

func runCall(ctx context.Context, args []string, std stdio) int {
	fs := flag.NewFlagSet("call [--arg name=value]... [--json '{...}'] FILE... TOOL", flag.ContinueOnError)
	var argv argFlags
	fs.Var(&argv, "arg", "an argument as name=value; the value is JSON when the argument is not a string (repeatable)")
	rawJSON := fs.String("json", "", "all arguments as one JSON object")
	dryRun := fs.Bool("dry-run", false, "print what the call would send (an HTTP request, secrets masked) and send nothing")
	pos, status, done := parseFlags(fs, args, std)
	if done {
		return status
	}
	if len(pos) < 2 {
		return usageError(std.err, "call", "need a config file and a tool name")
	}
	files, name := pos[:len(pos)-1], pos[len(pos)-1]
	srv := compileOrReport(files, runtime.BuildOptions{Registry: builtin.Registry()}, std.err)
	if srv == nil {
		return exitError
	}
	defer srv.Close()
	input, err := callArgs(srv, name, *rawJSON, argv)
	if err != nil {
		return usageError(std.err, "call", err.Error())
	}
	if *dryRun {
		plan, err := srv.DryRun(ctx, name, input)
		if err != nil {
			fmt.Fprintf(std.err, "mcpgen: %v\n", err)
			return exitError
		}
		fmt.Fprint(std.out, plan)
		return exitOK
	}
	res, err := srv.CallTool(ctx, name, input, nil)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	runtime.PrintResult(std.out, std.err, res)
	if res.IsError {
		return exitError
	}
	return exitOK
}

// callArgs builds the JSON arguments from --json and --arg flags. A value is
// taken as a string when the tool's schema says so, else as JSON if it
// parses, else as a string.
func callArgs(srv *runtime.Server, tool, rawJSON string, argv []string) ([]byte, error) {
	args := map[string]any{}
	if rawJSON != "" {
		if err := json.Unmarshal([]byte(rawJSON), &args); err != nil {
			return nil, fmt.Errorf("--json: %v", err)
		}
	}
	types := srv.ArgTypes(tool)
	for _, a := range argv {
		name, value, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--arg %q: want name=value", a)
		}
		var v any = value
		if types[name] != "string" {
			if err := json.Unmarshal([]byte(value), &v); err != nil {
				v = value
			}
		}
		args[name] = v
	}
	return json.Marshal(args)
}
