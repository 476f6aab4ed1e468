package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// compileMemoryLimit bounds the heap while a config is compiled with the
// garbage collector held back: past it, the collector runs as usual.
const compileMemoryLimit = 64 << 20

// compile is runtime.Compile with garbage collection deferred until the
// config is built, up to compileMemoryLimit (or GOMEMLIMIT, when lower).
//
// Loading a config allocates megabytes of short-lived values (YAML nodes,
// decoded schemas) in a process that has just started, whose first heap
// goal is 4 MB: the collector would run several times over memory that is
// about to be garbage anyway, while a client waits for its initialize
// answer. The Go compiler holds its collector back at startup for the same
// reason. Settings return to what they were (GOGC included) afterwards.
func compile(files []string, lo load.Options, bo runtime.BuildOptions) (*runtime.Server, load.Diagnostics) {
	limit := min(debug.SetMemoryLimit(-1), compileMemoryLimit)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return runtime.Compile(files, lo, bo)
}

// compileOrReport compiles files and writes every diagnostic to w, then a
// summary when the config does not build; the server is nil then.
func compileOrReport(files []string, bo runtime.BuildOptions, w io.Writer) *runtime.Server {
	srv, ds := compile(files, load.Options{}, bo)
	for _, d := range ds {
		fmt.Fprintln(w, d)
	}
	if srv == nil {
		fmt.Fprintln(w, ds.Summary())
	}
	return srv
}
