package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

// disconnectConfig has a shell tool that records its pid as /proc shows it
// (in mcpgen's PID namespace $$ is 1) and then sleeps, and, when %[1]q is
// a DSN, a PostgreSQL tool that sleeps in the database.
const disconnectConfig = `version: 1
tools:
  - name: sleeper
    description: Records its pid and sleeps.
    args: [{name: pidfile, required: true}]
    handler:
      kind: shell
      script: |
        read pid rest < /proc/self/stat; echo "$pid" > "$1"
        exec sleep 300
      params: ["${{ args.pidfile }}"]
      timeout: 10m
`

const disconnectPGConfig = `backends:
  pg: {kind: sql, driver: postgres, dsn: %q}
`

const disconnectPGTool = `  - name: sleepy
    description: Sleeps in the database.
    handler:
      backend: pg
      query: "SELECT pg_sleep(300), '%s' AS marker"
      timeout: 10m
`

// TestHTTPStatelessDisconnectStopsWork: in --stateless mode, a client that
// disconnects in the middle of a call leaves nothing running: the shell
// command is killed, and the PostgreSQL query (when
// MCPGEN_TEST_POSTGRES_DSN is set) is no longer running on the server.
func TestHTTPStatelessDisconnectStopsWork(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	marker := fmt.Sprintf("mcpgen-http-gone-%d", time.Now().UnixNano())
	cfg := disconnectConfig
	if dsn != "" {
		cfg = strings.Replace(cfg, "tools:\n", fmt.Sprintf(disconnectPGConfig, dsn)+"tools:\n", 1) +
			fmt.Sprintf(disconnectPGTool, marker)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", authtest.FreePort(t))
	cmd := exec.Command(binary(t), "serve", "--stateless", "--http", strings.TrimPrefix(base, "http://"), path)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, base)

	t.Run("shell", func(t *testing.T) {
		pidfile := filepath.Join(dir, "sleeper.pid")
		hangUp := callThenHangUp(t, base, "sleeper", `{"pidfile":`+strconv.Quote(pidfile)+`}`)
		pid := readPid(t, pidfile)
		hangUp()
		if !gone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the command (pid %d) still runs after its client disconnected", pid)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		if dsn == "" {
			t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
		}
		running := queryRunning(t, dsn, marker)
		hangUp := callThenHangUp(t, base, "sleepy", `{}`)
		eventually(t, "the query to start", running)
		hangUp()
		eventually(t, "the query after its client disconnected", func() bool { return !running() })
	})
}

// callThenHangUp posts a tools/call to a stateless server and returns a
// function that disconnects the client, in the middle of the call, and
// waits until the request is over on the client's side.
func callThenHangUp(t *testing.T, base, tool, args string) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	done := make(chan struct{})
	go func() {
		defer close(done)
		// A transport of its own: canceling closes its connection.
		resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	t.Cleanup(cancel)
	return func() {
		cancel()
		<-done
	}
}
