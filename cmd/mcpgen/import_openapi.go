package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/cmd/mcpgen/importer/openapi"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// listFlag collects comma-separated values from repeated flags.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Type() string   { return "list" }
func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// openapiFlags are the flags of `mcpgen import openapi`.
type openapiFlags struct {
	out, merge, name string
	depth            int
	pick             bool
	filter           openapi.Filter
	refs             openapi.LoadOptions
}

// maxImported is the largest config import writes: what mcpgen loads.
var maxImported = regfile.DefaultLimit

// openapiCommand declares `mcpgen import openapi`.
func openapiCommand() *cobra.Command {
	var f openapiFlags
	var cmd *cobra.Command
	cmd = newCommand("openapi SPEC [flags]", "an OpenAPI 3.0/3.1 or Swagger 2.0 description (file or URL)",
		func(ctx context.Context, pos []string, std stdio) int {
			return runImportOpenAPI(ctx, pos, std, f, commandLine(cmd, pos))
		})
	fs := cmd.Flags()
	fs.StringVarP(&f.out, "output", "o", "", "write the config to this file (default: standard output; with --merge, the merged file)")
	fs.StringVar(&f.merge, "merge", "", "add the operations this existing config lacks to it, leaving the rest as it is")
	fs.StringVar(&f.name, "name", "", "the server's and backend's name, and the prefix of environment variables (default: from the title)")
	fs.IntVar(&f.depth, "depth", 3, "how many $refs deep schemas are inlined")
	fs.BoolVar(&f.pick, "pick", false, "choose the operations interactively (the default on a terminal without filters)")
	fs.Var((*listFlag)(&f.filter.Tags), "tags", "only operations with one of these tags (comma-separated, repeatable)")
	fs.Var((*listFlag)(&f.filter.Operations), "operations", "only operations whose operationId or tool name matches one of these globs")
	fs.Var((*listFlag)(&f.filter.Paths), "paths", "only operations whose path matches one of these globs (* within a segment, ** across)")
	fs.Var((*listFlag)(&f.filter.Methods), "methods", "only these methods (GET,POST...)")
	fs.BoolVar(&f.refs.FileRefs, "file-refs", false, "let $refs read files in the description's folder (default: refs resolve within the description)")
	fs.BoolVar(&f.refs.RemoteRefs, "remote-refs", false, "let $refs fetch http(s) URLs at public addresses")
	fs.IntVar(&f.refs.MaxOperations, "max-operations", openapi.DefaultMaxOperations, "refuse a description with more operations, before reading it whole")
	fs.Var((*listFlag)(&f.refs.AllowHosts), "allow-ref-host", "with --remote-refs, hosts refs may reach even at a loopback, private or link-local address")
	return cmd
}

// runImportOpenAPI writes the config; line is the command line, recorded in it.
func runImportOpenAPI(ctx context.Context, pos []string, std stdio, f openapiFlags, line string) int {
	if len(pos) != 1 {
		return usageError(std.err, "import openapi", "need one API description: a file or an http(s) URL")
	}
	if f.name != "" && !validName(f.name) {
		return usageError(std.err, "import openapi", fmt.Sprintf("--name %q: use letters, digits and _", f.name))
	}
	if err := importOpenAPI(ctx, pos[0], f, line, std); err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	return exitOK
}

func validName(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

func importOpenAPI(ctx context.Context, source string, f openapiFlags, line string, std stdio) error {
	doc, err := openapi.Load(ctx, source, f.refs)
	if err != nil {
		return err
	}
	ops, err := f.filter.Select(doc.Operations())
	if err != nil {
		return err
	}
	if f.filter.Empty() && (f.pick || isTerminal(std.in)) {
		if ops, err = pickOperations(ops, std.in, std.err); err != nil {
			return err
		}
	}
	var existing *openapi.Existing
	if f.merge != "" {
		data, err := os.ReadFile(f.merge)
		if err != nil {
			return err
		}
		if existing, err = openapi.ReadExisting(data); err != nil {
			return fmt.Errorf("%s: %w", f.merge, err)
		}
		ops = missing(ops, existing)
	}
	if len(ops) == 0 && existing == nil {
		return fmt.Errorf("%s: no operation selected", source)
	}
	opts := openapi.Options{Name: f.name, Depth: f.depth, Command: line}
	var taken []string
	if existing != nil {
		taken = existing.Names
	}
	res := openapi.Convert(doc, ops, opts, taken)
	var out []byte
	if existing != nil {
		existing.Add(res)
		out, err = existing.Bytes()
		f.out = cmp.Or(f.out, f.merge)
	} else {
		out, err = openapi.Render(res.File)
	}
	if err != nil {
		return err
	}
	if len(out) > maxImported {
		return fmt.Errorf("the config would be %.1f MiB, more than the %.0f MiB mcpgen loads; select fewer operations with --tags, --paths, --operations or --methods",
			float64(len(out))/(1<<20), float64(maxImported)/(1<<20))
	}
	summarize(std.err, res, existing != nil)
	if f.out == "" {
		_, err = std.out.Write(out)
		return err
	}
	return os.WriteFile(f.out, out, 0o644)
}

// missing keeps the operations the existing config has no tool for.
func missing(ops []*openapi.Operation, e *openapi.Existing) []*openapi.Operation {
	var keep []*openapi.Operation
	for _, o := range ops {
		if !e.Has(o) {
			keep = append(keep, o)
		}
	}
	return keep
}

// summarize tells the user what was written and which variables to set.
func summarize(w io.Writer, res *openapi.Result, merged bool) {
	verb := "wrote"
	if merged {
		verb = "added"
	}
	fmt.Fprintf(w, "mcpgen: %s %d tools\n", verb, len(res.Tools))
	var set []string
	for _, e := range res.Env {
		if e.Default == "" {
			set = append(set, e.Name)
		}
	}
	if len(set) > 0 {
		fmt.Fprintf(w, "mcpgen: set %s before serving\n", strings.Join(set, ", "))
	}
	if len(res.Tools) > 40 {
		fmt.Fprintln(w, "mcpgen: some clients handle about 40 tools well; serve parts with `mcpgen serve --tags TAG` (the operations' tags) or toolsets")
	}
}

// commandLine is the command line cmd ran with, as it reads in a generated
// file: the command, the positional arguments, then the flags set.
func commandLine(cmd *cobra.Command, pos []string) string {
	words := append([]string{cmd.CommandPath()}, pos...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		if f.Value.Type() == "bool" {
			words = append(words, name)
			return
		}
		words = append(words, name, f.Value.String())
	})
	return strings.Join(words, " ")
}
