package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// the module version from the build info is used.
var version = ""

func runVersion(_ context.Context, args []string, std stdio) int {
	if len(args) > 0 {
		return usageError(std.err, "version", "version takes no arguments")
	}
	v := version
	if info, ok := debug.ReadBuildInfo(); ok && v == "" {
		v = info.Main.Version
	}
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	fmt.Fprintf(std.out, "mcpgen %s\n", v)
	return exitOK
}
