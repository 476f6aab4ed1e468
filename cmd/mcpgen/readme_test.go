package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestREADMEConfigs boots the configs the README shows whole (those that
// start with `version: 1`), so that they stay valid.
func TestREADMEConfigs(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, block := range strings.Split(string(data), "```yaml\n")[1:] {
		text, _, _ := strings.Cut(block, "```")
		if !strings.HasPrefix(text, "version: 1\n") {
			continue
		}
		n++
		path := filepath.Join(t.TempDir(), "mcpgen.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		boot(t, path)
	}
	if n == 0 {
		t.Fatal("the README shows no whole config")
	}
}

// TestREADMEToolsets serves the README's tags-and-toolsets example with
// each command line the README shows, and checks the tools it says.
func TestREADMEToolsets(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "### Choose what to expose: tags and toolsets\n")
	if !ok {
		t.Fatal("the README has no section on choosing what to expose")
	}
	_, config, _ := strings.Cut(section, "```yaml\n")
	config, rest, _ := strings.Cut(config, "```")
	_, commands, _ := strings.Cut(rest, "```\n")
	commands, _, _ = strings.Cut(commands, "```")
	path := filepath.Join(t.TempDir(), "tracker.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(commands) {
		cmdline, want, _ := strings.Cut(line, "#")
		f := strings.Fields(cmdline)
		var sel runtime.Selection
		switch f[2] {
		case "--toolset":
			sel.Toolset = f[3]
		case "--tags":
			sel.Tags = []string{f[3]}
		case "--tools":
			sel.Tools = []string{strings.Trim(f[3], "'")}
		}
		srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: builtin.Registry()})
		if srv == nil {
			t.Fatalf("the example does not build:\n%v", ds)
		}
		defer srv.Close()
		if err := srv.Select(sel); err != nil {
			t.Fatalf("%s: %v", cmdline, err)
		}
		got := strings.Join(srv.ToolNames(), ", ")
		if want = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(want), "(names or globs)")); got != want {
			t.Errorf("%s serves %s; the README says %s", strings.TrimSpace(cmdline), got, want)
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d command lines checked, want 3", n)
	}
}
