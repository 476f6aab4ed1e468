package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkillsOverStdio: over stdio, a 2025-11-25 client finds the skills
// extension in initialize and a 2026-07-28 client in server/discover; both
// list the skill and read its SKILL.md.
func TestSkillsOverStdio(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(`version: 1
tools: [{name: echo, description: Echoes., content: [{text: hi}]}]
skills: [{name: greeting, description: Greet., instructions: Call echo., tools: [echo]}]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	const ext = `"io.modelcontextprotocol/skills":{"directoryRead":true}`
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, era := range []struct{ name, open, params string }{
		{"2025-11-25", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`},
		{"2026-07-28", "server/discover", `{` + meta + `}`},
	} {
		c := startRaw(t, path)
		m := c.call(1, era.open, era.params)
		if m.Error != nil || !strings.Contains(string(m.Result), ext) {
			t.Errorf("%s: %s = %s, %v; want the skills extension", era.name, era.open, m.Result, m.Error)
		}
		p := "{}"
		if era.open == "initialize" {
			c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		} else {
			p = `{` + meta + `}`
		}
		if m := c.call(2, "skills/list", p); m.Error != nil || !strings.Contains(string(m.Result), `"uri":"skill://greeting/SKILL.md"`) {
			t.Errorf("%s: skills/list = %s, %v", era.name, m.Result, m.Error)
		}
		read := `{"uri":"skill://greeting/SKILL.md"}`
		if p != "{}" {
			read = `{"uri":"skill://greeting/SKILL.md",` + meta + `}`
		}
		if m := c.call(3, "resources/read", read); m.Error != nil || !strings.Contains(string(m.Result), `Call echo.`) {
			t.Errorf("%s: resources/read = %s, %v", era.name, m.Result, m.Error)
		}
	}
}
