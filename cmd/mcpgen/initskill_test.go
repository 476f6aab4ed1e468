package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestInitSkillExample: the skill mcpgen init writes, commented out,
// validates once its # signs are removed.
func TestInitSkillExample(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, code := runOut(t, "init", "--shell", "--http", "https://api.example.com/v1"); code != exitOK {
		t.Fatalf("init: exit %d\n%s", code, out)
	}
	raw, err := os.ReadFile("mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(raw)
	if !strings.Contains(cfg, "# skills:\n#   - name: getting-started") || !strings.Contains(cfg, "#     tools: [list_files, api_status]") {
		t.Fatalf("no skill example:\n%s", cfg)
	}
	head, tail, _ := strings.Cut(cfg, "# skills:")
	on := head + regexp.MustCompile(`(?m)^# `).ReplaceAllString("# skills:"+tail, "")
	if err := os.WriteFile("mcpgen.yaml", []byte(on), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runOut(t, "validate", "mcpgen.yaml")
	if code != exitOK || !strings.Contains(out, "1 skill") {
		t.Errorf("validate with the skill: exit %d\n%s\n%s", code, out, on)
	}
}
