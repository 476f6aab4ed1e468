package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
