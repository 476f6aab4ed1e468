package gcstart

import (
	"runtime/debug"
	"testing"
)

// TestTune: mcpgen runs the collector at Percent, unless GOGC is set,
// which the runtime has then applied and mcpgen leaves alone.
func TestTune(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	Tune(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, Percent)
	}
	Tune(func(k string) (string, bool) { return "50", k == "GOGC" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent changed to %d", got)
	}
}
