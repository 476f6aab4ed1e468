package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

// argFlags collects repeated --arg name=value flags.
type argFlags []string

func (a *argFlags) String() string     { return strings.Join(*a, " ") }
func (a *argFlags) Set(s string) error { *a = append(*a, s); return nil }
func (a *argFlags) Type() string       { return "name=value" }

// callFlags are the flags of `mcpgen call`.
type callFlags struct {
	argv    argFlags
	rawJSON string
	dryRun  bool
	skipEnv bool
}

// callCommand declares `mcpgen call`.
func callCommand() *cobra.Command {
	var f callFlags
	cmd := newCommand("call [--arg name=value]... [--json '{...}'] FILE... TOOL", "call one tool and print its result",
		func(ctx context.Context, pos []string, std stdio) int { return runCall(ctx, pos, std, &f) })
	fs := cmd.Flags()
	fs.Var(&f.argv, "arg", "an argument as name=value; the value is JSON when the argument is not a string (repeatable)")
	fs.StringVar(&f.rawJSON, "json", "", "all arguments as one JSON object")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print what the call would send (an HTTP request, secrets masked) and send nothing")
	fs.BoolVar(&f.skipEnv, "skip-env", false, "leave unset environment variables empty, even those the tool uses")
	return cmd
}

func runCall(ctx context.Context, pos []string, std stdio, f *callFlags) int {
	if len(pos) < 2 {
		return usageError(std.err, "call", "need a config file and a tool name")
	}
	files, name := pos[:len(pos)-1], pos[len(pos)-1]
	srv := compileForCall(files, name, f.skipEnv, std.err)
	if srv == nil {
		return exitError
	}
	defer srv.Close()
	input, err := callArgs(srv, name, f.rawJSON, f.argv)
	if err != nil {
		return usageError(std.err, "call", err.Error())
	}
	if f.dryRun {
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

// compileForCall compiles files to call the tool name, writing the
// diagnostics that matter to w. A variable that is not set stops the call
// only where the call needs it: in the tool, in a backend it names (its
// handler's, its call steps'), or in the server's own settings. Variables
// of other tools and backends are left empty, as validate --skip-env
// leaves them; with skipEnv, every variable is.
func compileForCall(files []string, name string, skipEnv bool, w io.Writer) *runtime.Server {
	bo := runtime.BuildOptions{Registry: builtin.Registry()}
	if !skipEnv {
		srv, ds := compile(files, load.Options{}, bo)
		if srv != nil {
			report(w, srv, ds)
			return srv
		}
		needs := toolNeeds(files, name)
		var stops load.Diagnostics
		for _, d := range ds {
			if d.Severity == load.Error && (!unsetVariable(d) || needs(d)) {
				stops = append(stops, d)
			}
		}
		if len(stops) > 0 {
			report(w, nil, stops)
			return nil
		}
	}
	srv, ds := compile(files, load.Options{SkipEnv: true}, bo)
	report(w, srv, ds)
	return srv
}

// unsetVariable reports whether d is about a variable that is not set
// (${NAME} or env.NAME).
func unsetVariable(d load.Diagnostic) bool {
	return strings.Contains(d.Message, "} is not set")
}

// toolNeeds returns whether a diagnostic lies where calling the tool name
// needs the config: the tool's entry, a backend named inside it, or
// anything but the entries of tools, prompts, resources, resource
// templates and backends.
func toolNeeds(files []string, name string) func(load.Diagnostic) bool {
	loaded, _ := load.Files(files, load.Options{SkipEnv: true})
	prefixes := map[string][]string{} // by file
	for _, f := range loaded {
		tools := f.Node("tools")
		if tools == nil || tools.Kind != yaml.SequenceNode {
			continue
		}
		for i, t := range tools.Content {
			if n := load.Resolve(t); n.Kind != yaml.MappingNode || scalarAt(n, "name") != name {
				continue
			}
			prefixes[f.Path] = append(prefixes[f.Path], fmt.Sprintf("tools[%d]", i))
			for _, b := range backendsNamed(t) {
				for _, g := range loaded { // a backend may be declared in another file
					prefixes[g.Path] = append(prefixes[g.Path], "backends."+b)
				}
			}
		}
	}
	under := func(path, prefix string) bool {
		return path == prefix || strings.HasPrefix(path, prefix+".") || strings.HasPrefix(path, prefix+"[")
	}
	return func(d load.Diagnostic) bool {
		for _, p := range prefixes[d.File] {
			if under(d.Path, p) {
				return true
			}
		}
		for _, other := range []string{"tools", "prompts", "resources", "resource_templates", "backends"} {
			if under(d.Path, other) {
				return false
			}
		}
		return true
	}
}

// scalarAt is the value of the scalar under key in mapping n, or "".
func scalarAt(n *yaml.Node, key string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return load.Resolve(n.Content[i+1]).Value
		}
	}
	return ""
}

// backendsNamed lists the values of every `backend:` key under n.
func backendsNamed(n *yaml.Node) []string {
	n = load.Resolve(n)
	var names []string
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Value == "backend" && i+1 < len(n.Content) {
			names = append(names, load.Resolve(n.Content[i+1]).Value)
			continue
		}
		names = append(names, backendsNamed(c)...)
	}
	return names
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
