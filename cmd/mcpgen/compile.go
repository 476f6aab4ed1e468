package main

import (
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"sync"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
)

// compileMemoryLimit bounds the heap while a config is compiled with the
// garbage collector held back: past it, the collector runs as usual.
const compileMemoryLimit = 64 << 20

// compileGCPercent is the GOGC of a build that outgrows compileMemoryLimit.
const compileGCPercent = 50

// parsedPerByte is about how many bytes of heap parsing a byte of YAML
// allocates, nearly all of it still live when parsing ends (the nodes): the
// collector held back that far past compileMemoryLimit does not mark a heap
// that only grows, again and again, while a large config is parsed. (The
// GitHub REST config, 7.7 MB, allocates 104 MB to parse, 74 MB of it live.)
const parsedPerByte = 12

// servedPerByte is parsedPerByte for a build that serves: about the heap a
// byte of YAML takes once such a build is done, parsed and built (a server
// compiles schemas on first use, so its heap stays well under validate's).
// Holding the collector back that far answers initialize on the GitHub
// REST config with a quarter less CPU time, for a peak of about 240 MB
// rather than 200 MB; validate, which must keep its peak under 300 MB,
// holds it back for the parse only.
const servedPerByte = 24

// compile is runtime.Compile with garbage collection deferred until the
// config is built, up to holdLimit (or GOMEMLIMIT, when lower).
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
	restore := holdGC(holdLimit(files, parsedPerByte))
	defer restore()
	return runtime.Compile(files, lo, bo)
}

// compileToServe is compile for `serve`, whose client waits for the build
// to answer initialize: the collector is held back through the build too
// (servedPerByte).
func compileToServe(files []string, lo load.Options, bo runtime.BuildOptions) (*runtime.Server, load.Diagnostics) {
	restore := holdGC(holdLimit(files, servedPerByte))
	defer restore()
	return runtime.Compile(files, lo, bo)
}

// holdLimit is how far the heap may grow with the collector held back while
// files are compiled: compileMemoryLimit, plus perByte for each byte of them.
func holdLimit(files []string, perByte int64) int64 {
	limit := int64(compileMemoryLimit)
	for _, name := range files {
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
			limit += perByte * min(st.Size(), regfile.DefaultLimit)
		}
	}
	return limit
}

// holdGC turns the collector off up to limit and returns the function that
// turns it back on; the first collection turns it back on too.
func holdGC(hold int64) (restore func()) {
	var mu sync.Mutex
	done := false
	limit := debug.SetMemoryLimit(-1)
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(min(limit, hold))
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
