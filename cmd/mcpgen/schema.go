package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/mcpgen/mcpgen/schema"
)

// schemaCommand declares `mcpgen schema`.
func schemaCommand() *cobra.Command {
	return newCommand("schema", "print the JSON Schema of the config file", runSchema)
}

func runSchema(_ context.Context, args []string, std stdio) int {
	if len(args) > 0 {
		return usageError(std.err, "schema", "schema takes no arguments")
	}
	std.out.Write(schema.JSON())
	return exitOK
}
