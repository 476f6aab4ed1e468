package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoCollectionWhileInitializing runs the mcpgen program as a client
// launches it, without GOGC, and reads the runtime's trace of package
// initialization and garbage collections: GOGC is set (package gcstart)
// before the packages that allocate most in their initialization, and no
// collection runs until initialization is over.
func TestNoCollectionWhileInitializing(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary(t), "version")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GODEBUG=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1,gctrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("mcpgen version: %v\n%s", err, stderr.String())
	}
	// "init P @15 ms, 0.01 ms clock, ..." when package P's initialization
	// starts and how long it takes; "gc 1 @0.012s ..." when a collection
	// starts (the line comes when it ends, maybe after later inits).
	gcstart, heavy := -1, -1
	initEnd, firstGC := 0.0, -1.0
	for i, line := range strings.Split(stderr.String(), "\n") {
		var pkg string
		var at, took, gcAt float64
		var n int
		switch {
		case strings.HasPrefix(line, "init "):
			if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock", &pkg, &at, &took); err != nil {
				t.Fatalf("reading %q: %v", line, err)
			}
			initEnd = max(initEnd, at+took)
			switch pkg {
			case "github.com/mcpgen/mcpgen/cmd/mcpgen/internal/gcstart":
				gcstart = i
			case "github.com/santhosh-tekuri/jsonschema/v6":
				heavy = i
			}
		case strings.HasPrefix(line, "gc ") && firstGC < 0:
			if _, err := fmt.Sscanf(line, "gc %d @%fs", &n, &gcAt); err != nil {
				t.Fatalf("reading %q: %v", line, err)
			}
			firstGC = gcAt * 1000
		}
	}
	if gcstart < 0 || heavy < 0 {
		t.Fatalf("the trace names no initialization of gcstart (%d) or of the JSON Schema validator (%d):\n%s", gcstart, heavy, stderr.String())
	}
	if gcstart > heavy {
		t.Errorf("gcstart is initialized after the JSON Schema validator, which allocates megabytes")
	}
	if firstGC >= 0 && firstGC < initEnd {
		t.Errorf("a collection started at %.1f ms, during package initialization (until %.1f ms):\n%s", firstGC, initEnd, stderr.String())
	}
}
