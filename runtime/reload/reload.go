// Package reload rebuilds a served config when its files change (`mcpgen
// serve --watch`, SIGHUP, `mcpgen dev`) and swaps it in with
// runtime.Live. A config that does not build is reported and the last good
// one keeps serving.
package reload

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// Options say what to build and where to report.
type Options struct {
	// Paths are the config files, as the user gave them.
	Paths []string
	// Load and Build are used for every build; Build.Previous and
	// Build.Referenced are set by the Reloader.
	Load  load.Options
	Build runtime.BuildOptions
	// Logger receives the outcome of each reload; discarded when nil.
	Logger *slog.Logger
	// Metrics counts reloads (mcpgen_reloads_total); nil for none.
	Metrics *observe.Metrics
	// Compile loads and builds; runtime.Compile when nil.
	Compile func([]string, load.Options, runtime.BuildOptions) (*runtime.Server, load.Diagnostics)
	// Select, if set, narrows every build to what is served (`serve
	// --toolset`, `--tools`, `--tags`); its error fails the build.
	Select func(*runtime.Server) error
	// OnBuild, if set, is called after every build with its diagnostics
	// and whether it is now served.
	OnBuild func(ds load.Diagnostics, ok bool)
}

// Reloader builds the config again on demand and swaps it into a Live.
type Reloader struct {
	opts  Options
	live  *runtime.Live
	mu    sync.Mutex // one build at a time
	files []string   // what the served config read, absolute
	diags load.Diagnostics
	// watching is set while Watch follows the files
	watching atomic.Bool
}

// Start builds the config for the first time. With a broken config it
// still returns a Reloader serving no tools when serveBroken is set (`mcpgen
// dev` shows the errors and waits for a fix); otherwise it returns nil and
// the diagnostics.
func Start(opts Options, serveBroken bool) (*Reloader, load.Diagnostics) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Reloader{opts: opts}
	srv, ds, files := r.build(nil)
	if srv == nil {
		if !serveBroken {
			return nil, ds
		}
		srv, _ = runtime.Build(nil, r.opts.Build)
	}
	r.live = runtime.NewLive(srv)
	r.files, r.diags = files, ds
	return r, ds
}

// Live returns what the Reloader swaps configs into.
func (r *Reloader) Live() *runtime.Live { return r.live }

// Server returns the server to hand to a transport: it serves every config
// to come.
func (r *Reloader) Server() *runtime.Server { return r.live.Current() }

// Diagnostics returns the problems of the last build, served or not.
func (r *Reloader) Diagnostics() load.Diagnostics {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.diags
}

// Files returns the files the served config was built from, absolute:
// the config files and those it read while building (SQL init files,
// schemas, templates, app pages, certificates).
func (r *Reloader) Files() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.files)
}

// Reload builds the config again. A good config replaces the one served;
// a broken one is reported on the operator log and to clients that asked
// for logs, and the last good one keeps serving. It reports whether the
// new config is served.
func (r *Reloader) Reload(ctx context.Context) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	srv, ds, files := r.build(r.live.Current())
	r.diags = ds
	if srv == nil {
		r.opts.Metrics.Reload("error")
		text := ds.Error() + "\n" + ds.Summary()
		r.opts.Logger.Error("reload failed; the last good config keeps serving", "errors", text)
		r.live.Log(ctx, "error", "mcpgen: reload failed; the last good config keeps serving:\n"+text)
		r.report(ds, false)
		return false
	}
	r.files = files
	r.live.Swap(srv)
	r.opts.Metrics.Reload("ok")
	r.opts.Logger.Info("config reloaded", "serving", srv.Describe())
	r.report(ds, true)
	return true
}

// ReloadWith changes the build options, for this build and every later
// one, and builds the config again as Reload does (`mcpgen dev`'s tool
// search switch). The options stay changed when the config does not build.
func (r *Reloader) ReloadWith(ctx context.Context, change func(*runtime.BuildOptions)) bool {
	r.mu.Lock()
	change(&r.opts.Build)
	r.mu.Unlock()
	return r.Reload(ctx)
}

func (r *Reloader) report(ds load.Diagnostics, ok bool) {
	if r.opts.OnBuild != nil {
		r.opts.OnBuild(ds, ok)
	}
}

// Close stops serving configs: the current one is closed after its last
// call.
func (r *Reloader) Close() error { return r.live.Close() }

// build loads and builds the config, recording the files it reads.
func (r *Reloader) build(prev *runtime.Server) (*runtime.Server, load.Diagnostics, []string) {
	seen := map[string]bool{}
	for _, p := range r.opts.Paths {
		seen[abs(p)] = true
	}
	bo := r.opts.Build
	bo.Previous = prev.Plan()
	next := bo.Referenced
	bo.Referenced = func(p string) {
		if watchable(p) {
			seen[abs(p)] = true
		}
		if next != nil {
			next(p)
		}
	}
	nextSecret := bo.SecretFiles
	bo.SecretFiles = func(p string) { // a rotated secret reloads too
		seen[abs(p)] = true
		if nextSecret != nil {
			nextSecret(p)
		}
	}
	compile := r.opts.Compile
	if compile == nil {
		compile = runtime.Compile
	}
	srv, ds := compile(r.opts.Paths, r.opts.Load, bo)
	if srv != nil && r.opts.Select != nil {
		if err := r.opts.Select(srv); err != nil {
			_ = srv.Close()
			srv = nil
			ds = append(ds, load.Diagnostic{File: r.opts.Paths[0], Message: err.Error(), Severity: load.Error})
		}
	}
	return srv, ds, slices.Sorted(func(yield func(string) bool) {
		for p := range seen {
			if !yield(p) {
				return
			}
		}
	})
}

// watchable reports whether a file the config refers to is read when the
// config builds, so that a change to it needs a reload: not a directory
// (a resource root, read per call), not a SQLite database or its journal
// (written while serving).
func watchable(p string) bool {
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if strings.HasSuffix(p, suffix) {
			return false
		}
	}
	st, err := os.Stat(p)
	if err != nil {
		return true // not there yet: its creation counts
	}
	return st.Mode().IsRegular() && !isSQLite(p)
}

func isSQLite(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	return string(head[:n]) == "SQLite format 3\x00"
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}
