package main

import (
	"bytes"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestCompileRestoresGC checks that compile leaves the collector's settings
// as it found them, whether the config builds or not.
func TestCompileRestoresGC(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("version: 1\n"), 0o644)
	os.WriteFile(bad, []byte("version: 2\n"), 0o644)

	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	for _, file := range []string{good, bad, filepath.Join(dir, "missing.yaml")} {
		srv, _ := compile([]string{file}, load.Options{}, runtime.BuildOptions{Registry: builtin.Registry()})
		if srv != nil {
			srv.Close()
		}
		if got := debug.SetGCPercent(150); got != 150 {
			t.Errorf("%s: GC percent %d after compile, want 150", filepath.Base(file), got)
		}
		if got := debug.SetMemoryLimit(-1); got != 1<<40 {
			t.Errorf("%s: memory limit %d after compile, want %d", filepath.Base(file), got, int64(1<<40))
		}
	}
}

// TestHoldGCAfterFirstCollection: the collector held back for a build comes
// back on (at compileGCPercent, under the usual memory limit) after the
// first collection, which only a build past compileMemoryLimit brings
// about; otherwise it would run without end at the limit. The settings are
// the caller's again once the build is done, whatever the finalizer does.
func TestHoldGCAfterFirstCollection(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	restore := holdGC(compileMemoryLimit)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent while held = %d, want -1", got)
	}
	goruntime.GC() // the sentinel becomes unreachable; its finalizer runs after
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetGCPercent(-1) != compileGCPercent {
		if time.Now().After(deadline) {
			t.Fatal("the collector was not turned back on after a collection")
		}
		goruntime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after the first collection = %d, want the caller's", got)
	}
	restore()
	if got := debug.SetGCPercent(-1); got != 150 {
		t.Errorf("GC percent after the build = %d, want 150", got)
	}
}

// TestHoldLimitScalesWithFiles: the collector is held back further for a
// large config than for a small one, by what parsing it takes.
func TestHoldLimitScalesWithFiles(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.yaml"), filepath.Join(dir, "large.yaml")
	os.WriteFile(small, []byte("version: 1\n"), 0o644)
	os.WriteFile(large, bytes.Repeat([]byte("# comment\n"), 1<<20), 0o644)
	if got, want := holdLimit([]string{small}, parsedPerByte), int64(compileMemoryLimit+parsedPerByte*11); got != want {
		t.Errorf("holdLimit(small) = %d, want %d", got, want)
	}
	if got, want := holdLimit([]string{small, large, filepath.Join(dir, "missing.yaml")}, servedPerByte),
		int64(compileMemoryLimit+servedPerByte*(11+10<<20)); got != want {
		t.Errorf("holdLimit(small, large, missing) = %d, want %d", got, want)
	}
}
