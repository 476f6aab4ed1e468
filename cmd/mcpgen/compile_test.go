package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

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
