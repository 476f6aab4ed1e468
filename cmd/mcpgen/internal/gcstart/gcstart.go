// Package gcstart sets the garbage collector's GOGC for mcpgen as the
// process starts, unless the environment sets GOGC.
//
// It runs in the initialization of this package, which imports nothing
// but the standard library, so that it comes before the packages that
// allocate megabytes in theirs (the JSON Schema validator compiles its
// meta-schemas there): at Go's default first heap goal of 4 MB the
// collector would run during initialization, over memory that stays live,
// while a client waits for its initialize answer. Measured with
// scripts/bench-peer.sh's start-up part (a 200-tool config): about 5 ms
// less from start to initialize, out of 39 ms.
package gcstart

import (
	"os"
	"runtime/debug"
)

// Percent is mcpgen's GOGC unless the environment sets GOGC. A server's
// live heap is a few MiB, so at Go's default of 100 every call's garbage
// starts a collection every few hundred calls; at 200 half as often, for a
// few MiB more at peak. Measured side by side on the SQLite workload of
// scripts/bench-peer.sh (16 HTTP clients): 12% more calls per second and
// 19% less CPU per call than at 100, for 6 MB more peak memory.
const Percent = 200

func init() { Tune(os.LookupEnv) }

// Tune sets Percent unless GOGC is set, as lookup tells: the runtime has
// then applied it, and mcpgen leaves it alone.
func Tune(lookup func(string) (string, bool)) {
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(Percent)
	}
}
