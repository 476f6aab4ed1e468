package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionScripts checks that `mcpgen completion SHELL` prints a
// script the shell reads without a syntax error (where the shell is
// installed; CI installs bash, zsh and fish and sets
// MCPGEN_TEST_SHELLS_REQUIRED), and that bash's is for mcpgen.
func TestCompletionScripts(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		t.Run(shell, func(t *testing.T) {
			out, code := runOut(t, "completion", shell)
			if code != exitOK || !strings.Contains(out, "mcpgen") {
				t.Fatalf("exit %d, script %.200q", code, out)
			}
			if shell == "powershell" {
				return
			}
			bin, err := exec.LookPath(shell)
			if err != nil {
				if os.Getenv("MCPGEN_TEST_SHELLS_REQUIRED") != "" {
					t.Fatalf("%s is required (MCPGEN_TEST_SHELLS_REQUIRED): %v", shell, err)
				}
				return
			}
			path := filepath.Join(t.TempDir(), "mcpgen."+shell)
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if msg, err := exec.Command(bin, "-n", path).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, msg)
			}
		})
	}
	if _, code := runOut(t, "completion", "tcsh"); code != exitUsage {
		t.Errorf("completion tcsh: exit %d, want %d", code, exitUsage)
	}
}

// TestCompletionCandidates asks for completions as the shell scripts do
// (the hidden __complete command) and checks they come from the commands'
// definitions: commands, a command's flags, an import format.
func TestCompletionCandidates(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"se"}, []string{"serve\t"}},
		{[]string{"serve", "--t"}, []string{"--tags\t", "--tls-cert\t", "--tls-key\t", "--tool-search\t", "--tools\t", "--toolset\t"}},
		{[]string{"validate", "x.yaml", "--sk"}, []string{"--skip-env\t"}},
		{[]string{"import", "o"}, []string{"openapi\t"}},
		{[]string{"pack", "-"}, []string{"-o\t", "--output\t"}},
		{[]string{"validate", "--format", ""}, []string{"github", "json", "text"}},
		{[]string{"serve", "x.yaml", "--log-level", "w"}, []string{"warn"}},
		{[]string{"client-config", "--client", ""}, []string{"claude", "cursor", "vscode", "codex"}},
	} {
		out, code := runOut(t, append([]string{"__complete"}, tt.args...)...)
		if code != exitOK {
			t.Fatalf("__complete %q: exit %d", tt.args, code)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, "\n"+w) && !strings.HasPrefix(out, w) {
				t.Errorf("__complete %q: no %q in\n%s", tt.args, w, out)
			}
		}
	}
}
