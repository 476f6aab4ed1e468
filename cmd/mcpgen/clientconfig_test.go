package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// snippet returns the text under the heading that starts with title in
// the output of client-config or init, up to the next blank line.
func snippet(t *testing.T, out, title string) string {
	t.Helper()
	_, rest, ok := strings.Cut(out, "# "+title)
	if !ok {
		t.Fatalf("no %q snippet in:\n%s", title, out)
	}
	_, rest, _ = strings.Cut(rest, "\n")
	text, _, _ := strings.Cut(rest, "\n\n")
	return text
}

// TestStdioSnippetServes: the stdio snippet init prints starts the real
// mcpgen on the config it wrote, from any directory, as a client would.
func TestStdioSnippetServes(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "init", "--shell", "--name", "demo")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	for _, title := range []string{"Claude Desktop (stdio)", "Cursor (stdio)"} {
		var doc struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(snippet(t, string(out), title)), &doc); err != nil {
			t.Fatalf("%s: %v", title, err)
		}
		s := doc.MCPServers["demo"]
		if s.Command != bin || len(s.Args) != 3 || s.Args[2] != filepath.Join(dir, "mcpgen.yaml") {
			t.Fatalf("%s: want %s serve --stdio %s, got %+v", title, bin, filepath.Join(dir, "mcpgen.yaml"), s)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		srv := exec.CommandContext(ctx, s.Command, s.Args...)
		srv.Dir = "/" // a desktop client's working directory is anywhere
		srv.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`)
		got, err := srv.Output()
		if err != nil || !bytes.Contains(got, []byte(`"name":"list_files"`)) {
			t.Fatalf("%s: the server did not list its tool: %v\n%s", title, err, got)
		}
	}
	codex := snippet(t, string(out), "Codex CLI (stdio)")
	if want := "command = \"" + bin + "\"\n"; !strings.Contains(codex, want) {
		t.Errorf("Codex snippet lacks %q:\n%s", want, codex)
	}
}

// TestClientConfigEnv: the variables a config needs are placeholders;
// VS Code asks for secrets instead of keeping them in the file; variables
// with a default are left out; the output ends with the variables to fill,
// secrets marked.
func TestClientConfigEnv(t *testing.T) {
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"client-config", "--client", "vscode", "../../examples/graphql/mcpgen.yaml"}, nil, &out, &errw)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	var doc struct {
		Inputs []struct {
			ID       string `json:"id"`
			Password bool   `json:"password"`
		} `json:"inputs"`
		Servers map[string]struct {
			Type string            `json:"type"`
			Env  map[string]string `json:"env"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(snippet(t, out.String(), "VS Code (stdio)")), &doc); err != nil {
		t.Fatal(err)
	}
	env := doc.Servers["directory"].Env
	if env["DIRECTORY_TOKEN"] != "${input:DIRECTORY_TOKEN}" || env["DIRECTORY_URL"] != "<DIRECTORY_URL>" ||
		len(doc.Inputs) != 1 || !doc.Inputs[0].Password || doc.Servers["directory"].Type != "stdio" {
		t.Errorf("VS Code snippet:\n%s", out.String())
	}
	if want := "#   DIRECTORY_URL    value\n#   DIRECTORY_TOKEN  secret\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("the variables to fill are not listed, secrets marked; want the output to end with:\n%s", want)
	}
	if strings.Contains(out.String(), "Cursor") {
		t.Error("--client vscode printed another client's snippet")
	}

	out.Reset()
	run(context.Background(), []string{"client-config", "--client", "cursor", "--url", "https://mcp.example.com/mcp", "../../examples/sqlite/mcpgen.yaml"}, nil, &out, &errw)
	if s := out.String(); strings.Contains(s, "SHOP_DB") || !strings.Contains(s, `"url": "https://mcp.example.com/mcp"`) {
		t.Errorf("Cursor snippets of the sqlite example (SHOP_DB has a default):\n%s", s)
	}
	if code := run(context.Background(), []string{"client-config", "--client", "emacs", "x.yaml"}, nil, &out, &errw); code != exitUsage {
		t.Errorf("an unknown client: exit %d, want %d", code, exitUsage)
	}
}
