package main

import (
	"context"

	"github.com/mcpgen/mcpgen/schema"
)

func runSchema(_ context.Context, args []string, std stdio) int {
	if len(args) > 0 {
		return usageError(std.err, "schema", "schema takes no arguments")
	}
	std.out.Write(schema.JSON())
	return exitOK
}
