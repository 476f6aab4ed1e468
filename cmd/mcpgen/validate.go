package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/spf13/cobra"
)

// validateFlags are the flags of `mcpgen validate`.
type validateFlags struct {
	format  string
	skipEnv bool
	connect bool
	costs   bool
}

// validateCommand declares `mcpgen validate`.
func validateCommand() *cobra.Command {
	var f validateFlags
	cmd := newCommand("validate [flags] FILE...", "check configs and report every problem",
		func(ctx context.Context, files []string, std stdio) int { return runValidate(ctx, files, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.format, "format", "text", "output format: text, json or github (workflow annotations)")
	completeWords(cmd, "format", slices.Sorted(maps.Keys(reporters))...)
	fs.BoolVar(&f.skipEnv, "skip-env", false, "do not report unset environment variables (for CI machines without secrets)")
	fs.BoolVar(&f.connect, "connect", false, "also connect to every backend that can be checked (databases) and report the ones that do not answer")
	fs.BoolVar(&f.costs, "costs", false, "also count the tokens of what clients list (tools, prompts, resource templates) and print the largest tools and the totals")
	return cmd
}

func runValidate(ctx context.Context, files []string, std stdio, f *validateFlags) int {
	if len(files) == 0 {
		return usageError(std.err, "validate", "no config file given")
	}
	report, ok := reporters[f.format]
	if !ok {
		return usageError(std.err, "validate", fmt.Sprintf("unknown format %q: use text, json or github", f.format))
	}
	srv, ds := compile(files, load.Options{SkipEnv: f.skipEnv},
		runtime.BuildOptions{Registry: builtin.Registry(), CountTokens: f.costs, Lint: true})
	if srv != nil {
		defer srv.Close()
		if f.connect {
			ds = append(ds, connectDiags(ctx, srv, files)...)
		}
	}
	if ds.Errors() > 0 {
		srv = nil // not ok
	}
	report(std, files, ds, srv)
	if f.costs && srv != nil && f.format != "json" {
		printCosts(std, srv.Plan().Costs)
	}
	if ds.Errors() > 0 {
		return exitError
	}
	return exitOK
}

var reporters = map[string]func(std stdio, files []string, ds load.Diagnostics, srv *runtime.Server){
	"text":   reportText,
	"json":   reportJSON,
	"github": reportGitHub,
}

func reportText(std stdio, files []string, ds load.Diagnostics, srv *runtime.Server) {
	for _, d := range ds {
		fmt.Fprintln(std.err, d)
	}
	if len(ds) > 0 {
		fmt.Fprintln(std.err, ds.Summary())
	}
	if srv != nil {
		fmt.Fprintf(std.out, "%s: ok (%s)\n", strings.Join(files, ", "), srv.Describe())
	}
}

func reportJSON(std stdio, _ []string, ds load.Diagnostics, srv *runtime.Server) {
	if ds == nil {
		ds = load.Diagnostics{}
	}
	out := struct {
		Diagnostics load.Diagnostics `json:"diagnostics"`
		Errors      int              `json:"errors"`
		Warnings    int              `json:"warnings"`
		Costs       any              `json:"costs,omitempty"` // with --costs or server.budget
	}{Diagnostics: ds, Errors: ds.Errors(), Warnings: ds.Warnings()}
	if srv != nil && srv.Plan().Costs != nil {
		out.Costs = costsJSON(srv.Plan().Costs)
	}
	enc := json.NewEncoder(std.out)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}

// reportGitHub prints workflow commands, which GitHub Actions shows as
// annotations on the lines of the pull request.
func reportGitHub(std stdio, _ []string, ds load.Diagnostics, _ *runtime.Server) {
	for _, d := range ds {
		fmt.Fprintln(std.out, d.Annotation(""))
	}
	if len(ds) > 0 {
		io.WriteString(std.err, ds.Summary()+"\n")
	}
}

// connectTimeout bounds how long validate --connect waits for each backend.
const connectTimeout = 5 * time.Second

// connectDiags pings every backend that can be pinged; one that does not
// answer is an error naming it.
func connectDiags(ctx context.Context, srv *runtime.Server, files []string) load.Diagnostics {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	var ds load.Diagnostics
	results := srv.Ping(ctx, nil)
	for _, name := range slices.Sorted(maps.Keys(results)) {
		if err := results[name]; err != nil {
			ds = append(ds, load.Diagnostic{File: strings.Join(files, ", "), Path: "backends." + name,
				Message: "cannot connect: " + err.Error(), Severity: load.Error})
		}
	}
	return ds
}
