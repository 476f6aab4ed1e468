package main

import (
	"context"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden files of failing cmp commands")

func TestMain(m *testing.M) {
	testscript.Main(exitHook{m}, map[string]func(){
		"mcpgen": func() { os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// exitHook removes the binary built for end-to-end tests after the run.
type exitHook struct{ m *testing.M }

func (h exitHook) Run() int {
	code := h.m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	return code
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"cmpsorted": cmpSorted},
	})
}

// cmpSorted compares two files line by line regardless of line order: the
// answers to concurrent requests may come in any order.
func cmpSorted(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpsorted got want")
	}
	lines := func(name string) []string {
		ls := strings.Split(strings.TrimSpace(ts.ReadFile(name)), "\n") // stdout and stderr too
		slices.Sort(ls)
		return ls
	}
	diff := cmp.Diff(lines(args[1]), lines(args[0]))
	if neg && diff == "" {
		ts.Fatalf("%s and %s have the same lines", args[0], args[1])
	}
	if !neg && diff != "" {
		ts.Fatalf("%s and %s differ (-want +got):\n%s", args[0], args[1], diff)
	}
}
