package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goDuration matches a duration as time.Duration.String writes it.
var goDuration = regexp.MustCompile(`^([0-9.]+(ns|µs|ms|s|m|h))+$`)

// TestServeStdioLogsAndMetrics: over stdio, --log-format json writes one
// JSON object a line on stderr, with one line per tool call, while stdout
// carries only the protocol; --metrics-addr serves /metrics and /readyz on
// a port of its own.
func TestServeStdioLogsAndMetrics(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	os.WriteFile(cfg, []byte("version: 1\ntools:\n  - {name: hello, description: d, content: [{text: hi}]}\n"), 0o644)
	c := startRaw(t, "--log-format", "json", "--metrics-addr", "127.0.0.1:0", cfg)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	c.next()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hello","arguments":{}}}`)
	if m := c.next(); m[0].Error != nil {
		t.Fatalf("call failed: %+v", m[0].Error)
	}
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/metrics`)
	var found []string
	eventually(t, "the metrics address and the call's log line", func() bool {
		found = addr.FindStringSubmatch(c.stderr.String())
		return found != nil && strings.Contains(c.stderr.String(), `"msg":"call"`)
	})
	for _, line := range bytes.Split(bytes.TrimSpace([]byte(c.stderr.String())), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Errorf("stderr line is not JSON: %q", line)
		}
		if m["msg"] == "call" && (m["tool"] != "hello" || m["outcome"] != "ok" || m["subject"] != "-") {
			t.Errorf("call line: %v", m)
		}
		// as the README shows it: "duration=3.2ms", a Go duration, not integer nanoseconds
		if d, ok := m["duration"].(string); m["msg"] == "call" && (!ok || !goDuration.MatchString(d)) {
			t.Errorf("call line's duration %#v, want a duration such as \"3.2ms\"", m["duration"])
		}
	}
	for path, want := range map[string]string{"/metrics": `mcpgen_tool_calls_total{outcome="ok",tool="hello"} 1`, "/readyz": `"ready":true`} {
		resp, err := http.Get("http://" + found[1] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("%s = %d, lacks %s:\n%s", path, resp.StatusCode, want, body)
		}
	}
}

func TestServeLogFormatUsage(t *testing.T) {
	var out, errw bytes.Buffer
	if code := run(t.Context(), []string{"serve", "--log-format", "yaml", "x.yaml"}, strings.NewReader(""), &out, &errw); code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(errw.String(), `unknown log format "yaml"; use text or json`) {
		t.Errorf("stderr: %s", errw.String())
	}
}
