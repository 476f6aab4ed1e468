package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphanConfig has a tool whose command starts a grandchild that leaves its
// process group and session (setsid), writes both their pids as /proc
// shows them and then waits.
const orphanConfig = `version: 1
tools:
  - name: spawn
    description: Starts a process that escapes its group and waits.
    args: [{name: base, required: true}]
    handler:
      kind: shell
      script: |
        echo $$ > "$1.ns"
        read pid rest < /proc/self/stat; echo "$pid" > "$1.child"
        setsid sh -c 'read pid rest < /proc/self/stat; echo "$pid" > "$1.grandchild"; exec sleep 600' g "$1" &
        while [ ! -s "$1.grandchild" ]; do sleep 0.01; done
        sleep 600
      params: ["${{ args.base }}"]
      timeout: 10m
`

// TestKilledServerLeavesNoProcess kills mcpgen with SIGKILL while a tool
// runs: the command and the grandchild it started with setsid die with it.
// Where the system refuses PID namespaces, only the command is sure to.
func TestKilledServerLeavesNoProcess(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(cfg, []byte(orphanConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "pid")
	cmd := exec.Command(binary(t), "serve", cfg)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	_, err = io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"spawn","arguments":{"base":`+strconv.Quote(base)+`}}}
`)
	if err != nil {
		t.Fatal(err)
	}
	child, grandchild := readPid(t, base+".child"), readPid(t, base+".grandchild")
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !gone(child) {
		_ = syscall.Kill(child, syscall.SIGKILL)
		t.Errorf("the command (pid %d) outlived mcpgen", child)
	}
	if readPid(t, base+".ns") != 1 {
		_ = syscall.Kill(grandchild, syscall.SIGKILL)
		t.Skip("no PID namespace here: a setsid grandchild outlives mcpgen")
	}
	if !gone(grandchild) {
		_ = syscall.Kill(grandchild, syscall.SIGKILL)
		t.Errorf("the setsid grandchild (pid %d) outlived mcpgen", grandchild)
	}
}

// readPid waits (boundedly) for a pid file to be written and reads it.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for range 600 {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("bad pid %q in %s", b, path)
			}
			return pid
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no pid written to %s", path)
	return 0
}

// gone polls /proc (boundedly: killing is asynchronous) until pid no
// longer runs; a zombie waiting to be reaped by init does not run.
func gone(pid int) bool {
	for range 200 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if errors.Is(err, os.ErrNotExist) {
			return true
		}
		if err == nil {
			fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(fields) > 0 && fields[0] == "Z" {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
