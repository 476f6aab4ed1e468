package pack

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestCodexSnippet: a name TOML cannot take bare is quoted, strings are
// TOML basic strings, and only variables without a default are listed.
func TestCodexSnippet(t *testing.T) {
	l := Launch{Name: "my.server", Command: `C:\mcpgen.exe`, Args: []string{"serve", "--stdio", "a b.yaml"},
		Env: []load.EnvVar{{Name: "API_TOKEN", Secret: true}, {Name: "REGION", Default: "eu", HasDefault: true}}}
	var codex string
	for _, s := range Snippets(l) {
		if s.Title == "Codex CLI (stdio)" {
			codex = s.Text
		}
	}
	want := `[mcp_servers."my.server"]
command = "C:\\mcpgen.exe"
args = ["serve", "--stdio", "a b.yaml"]

[mcp_servers."my.server".env]
API_TOKEN = "<API_TOKEN>"
`
	if codex != want {
		t.Errorf("got:\n%s\nwant:\n%s", codex, want)
	}
	if strings.Contains(codex, "REGION") {
		t.Error("a variable with a default is listed")
	}
}
