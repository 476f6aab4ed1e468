package main

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/cmd/mcpgen/internal/pack"
)

// TestPackStrippedWithPrompts packs examples/quickstart without --binary
// from an executable that carries debug information (a plain go build):
// mcpgen is built stripped for this platform instead (a stand-in for the go
// command records how), and every prompt of the config is in the manifest,
// its argument references written as MCPB writes them. The official
// `mcpb validate` then accepts the manifest.
func TestPackStrippedWithPrompts(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := "#!/bin/sh\necho \"$@\" > " + log + "\nenv | grep -E '^(GOOS|GOARCH)=' | sort >> " + log +
		"\nwhile [ \"$1\" != -o ]; do shift; done\necho built > \"$2\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	unstripped := binary(t) // a plain go build
	if !pack.HasDebugInfo(unstripped) {
		t.Fatalf("%s has no debug information", unstripped)
	}
	executable = func() (string, error) { return unstripped, nil }
	t.Cleanup(func() { executable = os.Executable })
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	bundle := filepath.Join(t.TempDir(), "q.mcpb")
	code, _, stderr := runMcpgen("pack", "../../examples/quickstart/mcpgen.yaml", "-o", bundle)
	if code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(log)
	if !strings.HasPrefix(string(got), "build -trimpath -ldflags=-s -w -buildid= ") ||
		!strings.HasSuffix(string(got), "\nGOARCH="+goruntime.GOARCH+"\nGOOS="+goruntime.GOOS+"\n") {
		t.Errorf("go was run as:\n%s", got)
	}
	dir, m, _ := unzip(t, bundle)
	if data, _ := os.ReadFile(filepath.Join(dir, "server", "mcpgen")); string(data) != "built\n" {
		t.Errorf("the bundled binary is not the stripped one built: %d bytes", len(data))
	}
	want := []any{map[string]any{"name": "summarize_note", "description": "Ask for a summary of one note, in a given tone.",
		"arguments": []any{"note", "tone"},
		"text":      "Summarize the note ${arguments.note} linked above in a ${arguments.tone} tone, in three bullet points."}}
	if diff := cmp.Diff(want, m["prompts"]); diff != "" {
		t.Errorf("manifest prompts (-want +got):\n%s", diff)
	}
	mcpbValidate(t, filepath.Join(dir, "manifest.json"))
}

// mcpbValidate runs the official `mcpb validate` (npm @anthropic-ai/mcpb,
// installed by scripts/authtest-deps.sh) on a manifest; it skips when
// absent, but not where MCPGEN_TEST_NODE_REQUIRED is set (CI).
func mcpbValidate(t *testing.T, manifest string) {
	t.Helper()
	cli := filepath.Join("..", "..", ".cache", "authtest", "node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js")
	_, err := os.Stat(cli)
	node, nodeErr := exec.LookPath("node")
	if err != nil || nodeErr != nil {
		if os.Getenv("MCPGEN_TEST_NODE_REQUIRED") != "" {
			t.Fatalf("mcpb validate needs node and scripts/authtest-deps.sh: %v %v", err, nodeErr)
		}
		t.Skip("node or @anthropic-ai/mcpb is absent: run scripts/authtest-deps.sh")
	}
	out, err := exec.Command(node, cli, "validate", manifest).CombinedOutput()
	if err != nil {
		t.Errorf("mcpb validate: %v\n%s", err, out)
	}
}
