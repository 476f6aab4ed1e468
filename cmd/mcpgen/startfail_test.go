package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// seen is what the official TypeScript client, launching a server as a
// desktop client does, gets to show its user (stdio-client.mjs).
type seen struct {
	Instructions string
	Tools        []struct{ Name, Description string }
	Result       *struct {
		IsError bool
		Content []struct{ Text string }
	}
	Logs []struct {
		Level, Logger string
		Data          any
	}
}

var (
	copyScript sync.Once
	copyErr    error
)

// launchWithTSClient runs `mcpgen ARGS...` under the official TypeScript
// client (npm @modelcontextprotocol/sdk, installed by
// scripts/authtest-deps.sh) with the default environment plus env, calls
// tool and returns what the client got. It skips when node or the package
// is absent, except where MCPGEN_TEST_NODE_REQUIRED is set (CI).
func launchWithTSClient(t *testing.T, tool string, env map[string]string, args ...string) seen {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".cache", "authtest"))
	if err != nil {
		t.Fatal(err)
	}
	node, nodeErr := exec.LookPath("node")
	_, sdkErr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	if nodeErr != nil || sdkErr != nil {
		if os.Getenv("MCPGEN_TEST_NODE_REQUIRED") != "" {
			t.Fatalf("the TypeScript client needs node and scripts/authtest-deps.sh: %v %v", nodeErr, sdkErr)
		}
		t.Skip("node or @modelcontextprotocol/sdk is absent: run scripts/authtest-deps.sh")
	}
	copyScript.Do(func() { // once: a client starting meanwhile would read it half written
		var script []byte
		script, copyErr = os.ReadFile(filepath.Join("..", "..", "runtime", "auth", "authtest", "node", "stdio-client.mjs"))
		if copyErr == nil {
			copyErr = os.WriteFile(filepath.Join(dir, "stdio-client.mjs"), script, 0o644)
		}
	})
	if copyErr != nil {
		t.Fatal(copyErr)
	}
	envJSON, _ := json.Marshal(env)
	cmd := exec.Command(node, append([]string{filepath.Join(dir, "stdio-client.mjs"), tool, string(envJSON), binary(t)}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, stderr.String())
	}
	var s seen
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("decoding %s: %v", out, err)
	}
	return s
}

// errorLogs are the error log messages of mcpgen the client received.
func (s seen) errorLogs() string {
	var b strings.Builder
	for _, l := range s.Logs {
		if l.Level == "error" && l.Logger == "mcpgen" {
			fmt.Fprintln(&b, l.Data)
		}
	}
	return b.String()
}

func containsAll(s string, subs ...string) error {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return fmt.Errorf("%q lacks %q", s, sub)
		}
	}
	return nil
}

// A config that cannot serve still completes initialize for a desktop
// client, and tells it why and what to fix in the three places such clients
// show: the server's instructions (to the model), the tool list (one
// config_error tool whose description says it), and the server log (an error
// log message), and the tool's call returns it all.
func TestStartFailureReachesTheClient(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\ntools:\n  - name: a b\n    description: x\n    content: [{text: '{{ .args }} ${{ 1 }} $${HOME}'}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, config string
		want         []string // in instructions, description, result and log alike
		fix          string
	}{
		{name: "crm", config: filepath.Join("..", "..", "examples", "crm", "mcpgen.yaml"),
			want: []string{"CRM_URL", "CRM_ACCOUNT (secret)", "CRM_SIGNING_SECRET (secret)"}, fix: `"env" of this server's entry`},
		{name: "included file", config: filepath.Join("..", "..", "examples", "split", "mcpgen.yaml"),
			want: []string{"DEPLOY_TOKEN"}, fix: "mcpgen client-config"},
		{name: "config error", config: bad,
			want: []string{"bad.yaml:3:11: tools[0].name: invalid tool name"}, fix: "mcpgen validate " + bad},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := launchWithTSClient(t, startFailureTool, nil, "serve", "--stdio", tt.config)
			if err := containsAll(s.Instructions, append(tt.want, tt.fix)...); err != nil {
				t.Errorf("instructions: %v", err)
			}
			if len(s.Tools) != 1 || s.Tools[0].Name != startFailureTool {
				t.Fatalf("tools %+v, want only %s", s.Tools, startFailureTool)
			}
			if err := containsAll(s.Tools[0].Description, append(tt.want, tt.fix)...); err != nil {
				t.Errorf("description: %v", err)
			}
			if s.Result == nil || !s.Result.IsError || len(s.Result.Content) != 1 {
				t.Fatalf("result %+v, want one error text", s.Result)
			}
			if err := containsAll(s.Result.Content[0].Text, append(tt.want, tt.fix)...); err != nil {
				t.Errorf("result: %v", err)
			}
			if err := containsAll(s.errorLogs(), append(tt.want, tt.fix)...); err != nil {
				t.Errorf("error log messages: %v", err)
			}
		})
	}
}

// The messages quote the config, templates and ${...} included: the
// failure server passes them on as they are, neither expanded nor run, and
// exits 1 when the client closes its input.
func TestStartFailureQuotesTheConfigAsItIs(t *testing.T) {
	t.Parallel()
	line := "  - name: x: {{ .args }} ${{ 1 }} $${HOME} ${NOPE} }}"
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\ntools:\n"+line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startRaw(t, bad)
	var texts []string
	var init struct{ Instructions string }
	m := c.call(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	if err := json.Unmarshal(m.Result, &init); err != nil {
		t.Fatal(err)
	}
	texts = append(texts, init.Instructions)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"config_error","arguments":{}}}`)
	for len(texts) < 3 { // the call's result and the log message, in either order
		for _, m := range c.next() {
			var r struct {
				Content []struct{ Text string }
				Data    string
			}
			raw := m.Result
			if m.Method == "notifications/message" {
				raw = m.Params
			}
			if err := json.Unmarshal(raw, &r); err != nil {
				t.Fatalf("%v: %s", err, raw)
			}
			for _, b := range r.Content {
				texts = append(texts, b.Text)
			}
			if r.Data != "" {
				texts = append(texts, r.Data)
			}
		}
	}
	for _, text := range texts {
		if !strings.Contains(text, bad+":3:12: yaml: mapping values") || !strings.Contains(text, "\n    "+line+"\n") {
			t.Errorf("the problem or the config's line as written is missing:\n%s", text)
		}
	}
	c.in.Close()
	var exit *exec.ExitError
	if err := c.wait(); !errors.As(err, &exit) || exit.ExitCode() != exitError {
		t.Errorf("the server ended with %v, want exit status %d", err, exitError)
	}
}

// A database that does not answer at start is told to the client, with the
// tools that fail until it does, while the server serves on.
func TestUnreachableDatabaseReachesTheClient(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	s := launchWithTSClient(t, "", map[string]string{"SHOP_DSN": "postgres://postgres@" + addr + "/shop?sslmode=disable"},
		"serve", "--stdio", filepath.Join("..", "..", "examples", "postgres", "mcpgen.yaml"))
	if len(s.Tools) < 2 {
		t.Errorf("tools %+v: the config's tools are still served", s.Tools)
	}
	if err := containsAll(s.errorLogs(), `backend "shop" does not answer`, addr, "search_customers", "mcpgen validate --connect"); err != nil {
		t.Error(err)
	}
}

// Only databases are checked at start: an HTTP API gets no request until a
// tool calls it, as services may count or bill them.
func TestStartChecksDatabasesOnly(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer api.Close()
	dir := t.TempDir()
	config := fmt.Sprintf(`version: 1
backends:
  a_api: {kind: http, base_url: %q}
  z_db: {kind: sql, driver: sqlite, dsn: "file:%s?mode=ro"}
tools:
  - {name: get, description: d, handler: {kind: http, backend: a_api, path: /x}}
  - {name: q, description: d, handler: {kind: sql, backend: z_db, query: "SELECT 1"}}
`, api.URL, filepath.Join(dir, "missing", "none.db"))
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startRaw(t, path)
	c.initialize()
	var logged string
	for logged == "" { // the backends are checked in name order: the API would come first
		for _, m := range c.next() {
			if m.Method == "notifications/message" {
				logged = string(m.Params)
			}
		}
	}
	if err := containsAll(logged, `backend \"z_db\" does not answer`, "These tools fail until it does: q."); err != nil {
		t.Error(err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the HTTP API got %d requests at start, want none", n)
	}
}
