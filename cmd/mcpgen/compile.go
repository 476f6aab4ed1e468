package main

import (
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// compileMemoryLimit bounds the heap while a config is compiled with the
// garbage collector held back: past it, the collector runs as usual.
const compileMemoryLimit = 64 << 20

// compileGCPercent is the GOGC of a build that outgrows compileMemoryLimit.
const compileGCPercent = 50

// compile is runtime.Compile with garbage collection deferred until the
// config is built, up to compileMemoryLimit (or GOMEMLIMIT, when lower).
//
// Loading a config allocates megabytes of short-lived values (YAML nodes,
// decoded schemas) in a process that has just started, whose first heap
// goal is 4 MB: the collector would run several times over memory that is
// about to be garbage anyway, while a client waits for its initialize
// answer. The Go compiler holds its collector back at startup for the same
// reason. Settings return to what they were (GOGC included) afterwards.
//
// A config too large for that (an imported API description of a thousand
// operations holds hundreds of megabytes live while it builds) would leave
// the collector running without end at the limit; so the first collection
// the limit brings about turns the collector on, at compileGCPercent (the
// live heap of such a build is large, and a goal of twice it would double
// the peak), and the settings return when the build is done.
func compile(files []string, lo load.Options, bo runtime.BuildOptions) (*runtime.Server, load.Diagnostics) {
	restore := holdGC()
	defer restore()
	return runtime.Compile(files, lo, bo)
}

// holdGC turns the collector off up to compileMemoryLimit and returns the
// function that turns it back on; the first collection turns it back on too.
func holdGC() (restore func()) {
	var mu sync.Mutex
	done := false
	limit := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, compileMemoryLimit))
	sentinel := new([16]byte) // big enough not to share a tiny block
	goruntime.SetFinalizer(sentinel, func(*[16]byte) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			debug.SetMemoryLimit(limit)
			debug.SetGCPercent(compileGCPercent)
		}
	})
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done = true
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// compileOrReport compiles files and writes every diagnostic to w, then a
// summary when the config does not build; the server is nil then.
func compileOrReport(files []string, bo runtime.BuildOptions, w io.Writer) *runtime.Server {
	srv, ds := compile(files, load.Options{}, bo)
	report(w, srv, ds)
	return srv
}

// report writes diagnostics, and a summary when the config did not build.
func report(w io.Writer, srv *runtime.Server, ds load.Diagnostics) {
	for _, d := range ds {
		fmt.Fprintln(w, d)
	}
	if srv == nil {
		fmt.Fprintln(w, ds.Summary())
	}
}
