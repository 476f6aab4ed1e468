package pack

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// Launch is how a client starts the server (stdio) or reaches it (HTTP).
type Launch struct {
	// Name is the server's key in the client's configuration.
	Name string
	// Command and Args start the server on stdio: an absolute path to
	// mcpgen, then serve --stdio and the absolute paths of the configs.
	Command string
	Args    []string
	// Env are the variables the configs read; those without a default
	// are written as placeholders to fill in.
	Env []load.EnvVar
	// URL is the Streamable HTTP endpoint, e.g. http://127.0.0.1:8080/mcp.
	URL string
}

// Snippet is what to add to one client's configuration.
type Snippet struct {
	// Client is the --client name: claude, cursor, vscode or codex.
	Client string
	// Title names the client and the transport.
	Title string
	// Where says which file takes the snippet.
	Where string
	// Text is the snippet.
	Text string
}

// Clients are the names Snippets knows, in the order it writes them.
var Clients = []string{"claude", "cursor", "vscode", "codex"}

// stdioServer is a server a client starts, in the JSON of most clients.
type stdioServer struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// Snippets returns the stdio snippet of every client, then its HTTP one.
func Snippets(l Launch) []Snippet {
	stdioJSON := stdioServer{Command: l.Command, Args: l.Args, Env: placeholders(l.Env, false)}
	return []Snippet{
		{"claude", "Claude Desktop (stdio)", "claude_desktop_config.json (Settings > Developer > Edit Config)",
			jsonText(map[string]any{"mcpServers": map[string]any{l.Name: stdioJSON}})},
		{"claude", "Claude Desktop (HTTP)", "Settings > Connectors > Add custom connector",
			fmt.Sprintf("Name: %s\nURL:  %s\n", l.Name, l.URL)},
		{"cursor", "Cursor (stdio)", "~/.cursor/mcp.json, or .cursor/mcp.json in a project",
			jsonText(map[string]any{"mcpServers": map[string]any{l.Name: stdioJSON}})},
		{"cursor", "Cursor (HTTP)", "~/.cursor/mcp.json, or .cursor/mcp.json in a project",
			jsonText(map[string]any{"mcpServers": map[string]any{l.Name: map[string]any{"url": l.URL}}})},
		{"vscode", "VS Code (stdio)", ".vscode/mcp.json in a workspace, or MCP: Open User Configuration", vscodeStdio(l)},
		{"vscode", "VS Code (HTTP)", ".vscode/mcp.json in a workspace, or MCP: Open User Configuration",
			jsonText(map[string]any{"servers": map[string]any{l.Name: map[string]any{"type": "http", "url": l.URL}}})},
		{"codex", "Codex CLI (stdio)", "~/.codex/config.toml", codexStdio(l)},
		{"codex", "Codex CLI (HTTP)", "~/.codex/config.toml",
			fmt.Sprintf("[mcp_servers.%s]\nurl = %s\n", tomlKey(l.Name), tomlString(l.URL))},
	}
}

// placeholders maps every variable without a default to "<NAME>", or,
// with inputs, secrets to VS Code's ${input:NAME}.
func placeholders(vars []load.EnvVar, inputs bool) map[string]string {
	var out map[string]string
	for _, v := range vars {
		switch {
		case v.HasDefault:
			continue
		case out == nil:
			out = map[string]string{}
		}
		switch {
		case inputs && v.Secret:
			out[v.Name] = "${input:" + v.Name + "}"
		default:
			out[v.Name] = "<" + v.Name + ">"
		}
	}
	return out
}

// vscodeStdio asks for secrets when the server starts (inputs), so that
// they are not written in the file.
func vscodeStdio(l Launch) string {
	type input struct {
		Type        string `json:"type"`
		ID          string `json:"id"`
		Description string `json:"description"`
		Password    bool   `json:"password"`
	}
	var doc struct {
		Inputs  []input                `json:"inputs,omitempty"`
		Servers map[string]stdioServer `json:"servers"`
	}
	doc.Servers = map[string]stdioServer{l.Name: {Type: "stdio", Command: l.Command, Args: l.Args, Env: placeholders(l.Env, true)}}
	for _, v := range l.Env {
		if v.Secret && !v.HasDefault {
			doc.Inputs = append(doc.Inputs, input{"promptString", v.Name, v.Name + " for " + l.Name, true})
		}
	}
	return jsonText(doc)
}

func codexStdio(l Launch) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[mcp_servers.%s]\ncommand = %s\nargs = [", tomlKey(l.Name), tomlString(l.Command))
	for i, a := range l.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlString(a))
	}
	b.WriteString("]\n")
	if env := placeholders(l.Env, false); len(env) > 0 {
		fmt.Fprintf(&b, "\n[mcp_servers.%s.env]\n", tomlKey(l.Name))
		for _, v := range l.Env {
			if p, ok := env[v.Name]; ok {
				fmt.Fprintf(&b, "%s = %s\n", tomlKey(v.Name), tomlString(p))
			}
		}
	}
	return b.String()
}

// tomlKey writes a bare key when it can, else a quoted one.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return tomlString(k)
		}
	}
	return k
}

// tomlString quotes s as a TOML basic string (its escapes are JSON's).
func tomlString(s string) string {
	return strings.TrimSuffix(jsonText(s), "\n")
}

func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.String()
}

// WriteSnippets writes the snippets, each under a heading saying where it
// goes; client, when not empty, keeps that client's only.
func WriteSnippets(w io.Writer, snippets []Snippet, client string) {
	for _, s := range snippets {
		if client != "" && s.Client != client {
			continue
		}
		fmt.Fprintf(w, "# %s: %s\n%s\n", s.Title, s.Where, s.Text)
	}
}
