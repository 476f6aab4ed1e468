package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSoak runs `mcpgen soak` on a config for two short windows: it starts
// the server itself, calls the first tool at the rate asked, and reports
// memory, goroutines and latency at the start and the end.
func TestSoak(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(cfg, []byte(`version: 1
tools:
  - name: ping
    description: Answers pong.
    handler: {kind: shell, command: [echo, pong]}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	cmd := exec.Command(binary(t), "soak", "--duration", "2s", "--window", "1s", "--rate", "10", cfg)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("soak: %v\n%s%s", err, out.String(), errb.String())
	}
	got := out.String()
	for _, want := range []string{"soak: 10 calls/s of ping for 2s", "rss", "goroutines", "start: rss ", "end:   rss ", "errors 0"} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "start: rss 0.0MiB") {
		t.Errorf("the server's memory was not read from /metrics:\n%s", got)
	}
}

func TestSoakUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"soak"}, "give either --url or config files"},
		{[]string{"soak", "--url", "http://x", "a.yaml"}, "give either --url or config files"},
		{[]string{"soak", "--rate", "0", "a.yaml"}, "--rate, --duration and --window must be positive"},
		{[]string{"soak", "--args", "[1]", "a.yaml"}, "--args must be a JSON object"},
	} {
		var out, errb bytes.Buffer
		if st := run(context.Background(), tt.args, nil, &out, &errb); st != exitUsage || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tt.args, st, errb.String(), exitUsage, tt.want)
		}
	}
}
