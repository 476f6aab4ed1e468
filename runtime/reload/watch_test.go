package reload

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	mcpruntime "github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// watching starts Watch on f, counting builds, and stops it at the end.
func (f *fixture) watching(t *testing.T, builds *atomic.Int64, opts ...WatchOptions) context.CancelFunc {
	t.Helper()
	f.r.opts.OnBuild = func(load.Diagnostics, bool) { builds.Add(1) }
	ctx, cancel := context.WithCancel(context.Background())
	o := WatchOptions{Quiet: 50 * time.Millisecond}
	if len(opts) > 0 {
		o = opts[0]
	}
	o.Files = true
	done, err := f.r.Watch(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Watch did not return")
		}
	}
	t.Cleanup(stop)
	return stop
}

// TestWatchEditorSaves: each way editors save a file (write in place,
// truncate then write in several writes, write another file and rename it
// over) ends with the new config served.
func TestWatchEditorSaves(t *testing.T) {
	for _, tt := range []struct {
		name string
		save func(t *testing.T, path, text string)
	}{
		{"write in place", func(t *testing.T, path, text string) { write(t, path, text) }},
		{"truncate then several writes", func(t *testing.T, path, text string) {
			fh, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			for i := 0; i < len(text); i += 16 {
				if _, err := fh.WriteString(text[i:min(i+16, len(text))]); err != nil {
					t.Fatal(err)
				}
				_ = fh.Sync()
			}
		}},
		{"rename over", func(t *testing.T, path, text string) {
			tmp := filepath.Join(filepath.Dir(path), ".mcpgen.yaml.swp")
			write(t, tmp, text)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, config("one", "a"))
			var builds atomic.Int64
			f.watching(t, &builds)
			tt.save(t, f.path, config("one", "a", "b"))
			waitFor(t, func() bool { return slices.Equal(f.toolNames(), []string{"a", "b"}) })
			// A second save still works: the watch follows a replaced file.
			tt.save(t, f.path, config("one", "c"))
			waitFor(t, func() bool { return slices.Equal(f.toolNames(), []string{"c"}) })
		})
	}
}

func (f *fixture) toolNames() []string { return f.r.live.Current().ToolNames() }

// TestWatchBurst: 1,000 writes in a row give a few reloads, not hundreds,
// the last content is served, and stopping the watch leaves no goroutine
// behind. The quiet time is longer than the default so that a pause of the
// busy test machine between two writes does not count as the end of the
// burst.
func TestWatchBurst(t *testing.T) {
	before := runtime.NumGoroutine()
	f := newFixture(t, config("one", "a"))
	var builds atomic.Int64
	stop := f.watching(t, &builds, WatchOptions{Quiet: 500 * time.Millisecond, MaxDelay: time.Minute})
	for i := range 1000 {
		tools := []string{"a"}
		if i == 999 {
			tools = append(tools, "last")
		}
		write(t, f.path, config("one", tools...))
	}
	waitFor(t, func() bool { return slices.Contains(f.toolNames(), "last") })
	if n := builds.Load(); n > 5 {
		t.Errorf("1,000 writes gave %d reloads, want at most 5", n)
	}
	stop()
	f.r.Close()
	f.cs.Close()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before+2 })
}

// TestWatchFollowsReferencedFiles: a change to a file the config reads
// beside itself (a resource's template file here; an SQL init file, a
// schema or an app's page elsewhere) reloads too.
func TestWatchFollowsReferencedFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	page := filepath.Join(dir, "page.html")
	write(t, page, "<p>one</p>")
	write(t, path, "version: 1\nresources:\n  - {uri: 'ui://page', name: page, mime_type: text/html, template_file: page.html}\n")
	metrics := observe.NewMetrics()
	r, ds := Start(Options{Paths: []string{path}, Metrics: metrics,
		Build: mcpruntime.BuildOptions{Observer: &observe.Observer{Metrics: metrics}}}, false)
	if r == nil {
		t.Fatal(ds)
	}
	defer r.Close()
	if !slices.Contains(r.Files(), page) {
		t.Fatalf("files watched: %v, want %s among them", r.Files(), page)
	}
	f := &fixture{r: r, path: path}
	var builds atomic.Int64
	f.watching(t, &builds)
	write(t, page, "<p>two</p>")
	waitFor(t, func() bool { return builds.Load() > 0 })
}

// TestWatchFollowsSymlinkedConfig: a config given as a symbolic link to a
// file in another directory is reloaded when the target is edited.
func TestWatchFollowsSymlinkedConfig(t *testing.T) {
	f := newFixture(t, config("one", "a"))
	real := filepath.Join(t.TempDir(), "real.yaml")
	write(t, real, config("one", "a"))
	if err := os.Remove(f.path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, f.path); err != nil {
		t.Fatal(err)
	}
	var builds atomic.Int64
	f.watching(t, &builds)
	write(t, real, config("one", "a", "b"))
	waitFor(t, func() bool { return slices.Equal(f.toolNames(), []string{"a", "b"}) })
}

// TestWatchFollowsSecretFiles: a secret read from a file (rotated where
// Kubernetes mounts it) or an env_file, even one not there yet, reloads
// the config when it changes.
func TestWatchFollowsSecretFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	token, env := filepath.Join(dir, "token"), filepath.Join(dir, ".env")
	write(t, token, "tok-one-0123456789\n")
	write(t, path, "version: 1\nenv_file: .env\nserver:\n  http: {auth: {api_keys: [{name: k, key: \"${file:token}\"}]}}\n"+
		"tools:\n  - {name: a, description: A., content: [{text: a}]}\n")
	r, ds := Start(Options{Paths: []string{path}}, false)
	if r == nil {
		t.Fatal(ds)
	}
	defer r.Close()
	for _, p := range []string{token, env} {
		if !slices.Contains(r.Files(), p) {
			t.Fatalf("files watched: %v, want %s among them", r.Files(), p)
		}
	}
	f := &fixture{r: r, path: path}
	var builds atomic.Int64
	f.watching(t, &builds)
	write(t, token, "tok-two-0123456789\n")
	waitFor(t, func() bool { return builds.Load() > 0 })
	write(t, env, "REGION=eu\n")
	waitFor(t, func() bool { return builds.Load() > 1 })
}
