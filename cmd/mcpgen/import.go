package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/spec/suggest"
)

// importers are the formats `mcpgen import` reads, one file each.
func importers() []command {
	return []command{
		{"graphql", "a GraphQL schema (SDL or introspection JSON) and a directory of operations", runImportGraphQL},
		{"openapi", "an OpenAPI 3.0/3.1 or Swagger 2.0 description (file or URL)", runImportOpenAPI},
	}
}

// runImport writes a config from an API description: `mcpgen import FORMAT
// SOURCE [flags]`.
func runImport(ctx context.Context, args []string, std stdio) int {
	formats := importers()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		w, status := std.err, exitUsage
		if len(args) > 0 {
			w, status = std.out, exitOK
		}
		fmt.Fprintln(w, "Usage: mcpgen import <format> SOURCE [flags]\n\nFormats:")
		for _, f := range formats {
			fmt.Fprintf(w, "  %-9s %s\n", f.name, f.summary)
		}
		fmt.Fprintln(w, "\nRun 'mcpgen import <format> -h' for a format's flags.")
		return status
	}
	var names []string
	for _, f := range formats {
		if f.name == args[0] {
			return f.run(ctx, args[1:], std)
		}
		names = append(names, f.name)
	}
	msg := fmt.Sprintf("unknown format %q; known formats: %s", args[0], strings.Join(names, ", "))
	if hint := suggest.DidYouMean(args[0], names); hint != "" {
		msg += "; " + hint
	}
	return usageError(std.err, "import", msg)
}
