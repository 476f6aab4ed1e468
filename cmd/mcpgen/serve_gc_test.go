package main

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: serve runs the collector at serveGCPercent, unless GOGC is
// set, which the runtime has then applied and mcpgen leaves alone.
func TestTuneGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	tuneGC(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, serveGCPercent)
	}
	tuneGC(func(k string) (string, bool) { return "50", k == "GOGC" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent changed to %d", got)
	}
}
