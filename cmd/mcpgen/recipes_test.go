package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecipes boots every config of docs/recipes.md: each block there is a
// whole config, so that none can rot.
func TestRecipes(t *testing.T) {
	data, err := os.ReadFile("../../docs/recipes.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(data), "```yaml\n")[1:]
	if len(blocks) == 0 {
		t.Fatal("the recipes show no config")
	}
	for i, block := range blocks {
		text, _, found := strings.Cut(block, "```")
		if !found || !strings.HasPrefix(text, "version: 1\n") {
			t.Errorf("block %d is not a whole config (or its fence is not closed):\n%s", i+1, text)
			continue
		}
		path := filepath.Join(t.TempDir(), "mcpgen.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		boot(t, path)
	}
}
