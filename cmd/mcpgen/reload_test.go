package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const reloadConfig = `version: 1
tools:
  - {name: first, description: d, handler: {kind: shell, command: [echo, one]}}
`

// TestServeReloads: `mcpgen serve` reloads its config on SIGHUP, and with
// --watch when the file changes; the client's session stays, is told
// tools/list_changed and lists the new tool. A broken file in between is
// reported on stderr and changes nothing.
func TestServeReloads(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		hup  bool
	}{
		{"SIGHUP", nil, true},
		{"--watch", []string{"--watch"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mcpgen.yaml")
			if err := os.WriteFile(path, []byte(reloadConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.Command(binary(t), append(append([]string{"serve"}, tt.args...), path)...)
			stderr := &syncBuffer{}
			cmd.Stderr = stderr
			changed := make(chan struct{}, 10)
			client := mcp.NewClient(&mcp.Implementation{Name: "reload", Version: "1"}, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if c := cs.InitializeResult().Capabilities.Tools; c == nil || !c.ListChanged {
				t.Errorf("tools capability %+v, want listChanged", c)
			}
			save := func(text string) {
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				if tt.hup {
					_ = cmd.Process.Signal(syscall.SIGHUP)
				}
			}
			save("version: 1\ntools: [\n")
			waitStderr(t, stderr, "reload failed")
			save(reloadConfig + "  - {name: second, description: d, handler: {kind: shell, command: [echo, two]}}\n")
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatalf("no tools/list_changed; stderr:\n%s", stderr)
			}
			res, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tl := range res.Tools {
				names = append(names, tl.Name)
			}
			if !slices.Equal(names, []string{"first", "second"}) {
				t.Errorf("tools after reload: %v", names)
			}
		})
	}
}

func waitStderr(t *testing.T, stderr *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("stderr has no %q:\n%s", want, stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
