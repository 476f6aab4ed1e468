//go:build unix

package shellkind_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
)

// alive reports whether pid runs: it exists and, where /proc tells, is not
// a zombie waiting for init to reap it.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) || !isDir("/proc/self")
	}
	// the state follows the command name in parentheses
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// checkGone reads the pid a script wrote and fails the test unless that
// process is gone within a few seconds (killing is asynchronous).
func checkGone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the script wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("bad pid %q", b)
	}
	for range 100 {
		if !alive(pid) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("process %d outlived its call", pid)
}

func callWithPidFile(t *testing.T, ctx context.Context, srv *runtime.Server) (string, string, bool) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	args, _ := json.Marshal(map[string]string{"pidfile": pidFile})
	res := handlertest.Call(t, ctx, srv, "t", string(args))
	return pidFile, handlertest.Text(res), res.IsError
}

func TestProcessGroupIsKilled(t *testing.T) {
	t.Parallel()
	t.Run("on timeout", func(t *testing.T) {
		t.Parallel()
		// Long enough for the script to write its pid on a loaded machine.
		srv := build(t, tool([]string{"pidfile"}, "command: [./grandchild.sh, --, '${{ args.pidfile }}']\ntimeout: 3s"))
		pidFile, text, isError := callWithPidFile(t, context.Background(), srv)
		if !isError || !strings.Contains(text, "timed out after 3s") {
			t.Errorf("want a timeout error, got isError=%v %q", isError, text)
		}
		checkGone(t, pidFile)
	})
	t.Run("on cancel", func(t *testing.T) {
		t.Parallel()
		srv := build(t, tool([]string{"pidfile"}, "command: [./grandchild.sh, --, '${{ args.pidfile }}']"))
		// The call is canceled once the script has written its pid (or
		// after 30s), so a loaded machine cannot cancel it before.
		pidFile := filepath.Join(t.TempDir(), "pid")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		go func() {
			for ctx.Err() == nil {
				if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
					cancel()
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
		args, _ := json.Marshal(map[string]string{"pidfile": pidFile})
		res := handlertest.Call(t, ctx, srv, "t", string(args))
		text, isError := handlertest.Text(res), res.IsError
		if !isError || !strings.Contains(text, "canceled") {
			t.Errorf("want a cancellation error, got isError=%v %q", isError, text)
		}
		checkGone(t, pidFile)
	})
	t.Run("when the command exits", func(t *testing.T) {
		t.Parallel()
		// The background sleep holds stdout open: the call only returns
		// (before the test's deadline) because its group is killed.
		srv := build(t, tool([]string{"pidfile"}, "command: [./background.sh, --, '${{ args.pidfile }}']"))
		pidFile, text, isError := callWithPidFile(t, context.Background(), srv)
		if isError || text != "started\n" {
			t.Errorf("want started, got isError=%v %q", isError, text)
		}
		checkGone(t, pidFile)
	})
	t.Run("when the server closes", func(t *testing.T) {
		t.Parallel()
		srv := build(t, tool([]string{"pidfile"}, "command: [./grandchild.sh, --, '${{ args.pidfile }}']"))
		pidFile := filepath.Join(t.TempDir(), "pid")
		done := make(chan string)
		go func() {
			res, _ := handlertest.CallTool(context.Background(), srv, "t", []byte(`{"pidfile": "`+pidFile+`"}`), nil)
			done <- handlertest.Text(res)
		}()
		for range 100 {
			if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		srv.Close()
		if text := <-done; !strings.Contains(text, "shutting down") {
			t.Errorf("want a shutdown error, got %q", text)
		}
		checkGone(t, pidFile)
		res, _ := handlertest.CallTool(context.Background(), srv, "t", []byte(`{"pidfile": "`+pidFile+`"}`), nil)
		if text := handlertest.Text(res); !res.IsError || !strings.Contains(text, "shutting down") {
			t.Errorf("a call after Close: want a shutdown error, got %q", text)
		}
	})
}

// namespaced tells whether commands run here as the first process of a
// PID namespace of their own (the system allows it).
func namespaced(t *testing.T) bool {
	t.Helper()
	srv := build(t, tool(nil, "script: echo $$"))
	return handlertest.Text(handlertest.Call(t, context.Background(), srv, "t", `{}`)) == "1\n"
}

// TestEscapedProcessDoesNotHoldTheCall: a process that leaves the group
// (setsid) cannot be killed with it and keeps stdout open. In a PID
// namespace it dies with the command all the same; without one, the call
// still returns, waitDelay after the command exited, instead of waiting
// for it.
func TestEscapedProcessDoesNotHoldTheCall(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	// The script waits until the escapee has written its pid (as the test
	// sees it, from /proc), so that it is out of the group before the
	// script exits.
	srv := build(t, tool([]string{"pidfile"}, `script: |
  setsid sh -c 'read pid rest < /proc/self/stat || pid=$$; echo "$pid" > "$1"; exec sleep 60' escapee "$1" &
  while [ ! -s "$1" ]; do sleep 0.01; done
  echo started
params: ['${{ args.pidfile }}']`))
	start := time.Now()
	pidFile, text, isError := callWithPidFile(t, context.Background(), srv)
	elapsed := time.Since(start)
	if isError || text != "started\n" {
		t.Errorf("want started, got isError=%v %q", isError, text)
	}
	if namespaced(t) {
		checkGone(t, pidFile)
		return
	}
	if b, err := os.ReadFile(pidFile); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	if elapsed > 30*time.Second || elapsed < time.Second {
		t.Errorf("the call took %v: it should wait for the pipes a little (waitDelay), not for the escapee", elapsed)
	}
}

func TestProgramGoneAtCallTime(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, "command: [no-such-program-mcpgen]"))
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	if text := handlertest.Text(res); !res.IsError || !strings.Contains(text, `program "no-such-program-mcpgen" not found on PATH`) {
		t.Errorf("want a not-found error, got isError=%v %q", res.IsError, text)
	}
}

// TestStandardStreams: stdin is /dev/null and stdout and stderr are pipes
// of mcpgen's own, never the server's streams.
func TestStandardStreams(t *testing.T) {
	t.Parallel()
	if !isDir("/proc/self/fd") {
		t.Skip("no /proc here")
	}
	srv := build(t, tool(nil, "command: [readlink, /proc/self/fd/0, /proc/self/fd/1, /proc/self/fd/2]"))
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	got := strings.Fields(handlertest.Text(res))
	if len(got) != 3 || got[0] != "/dev/null" {
		t.Fatalf("want stdin /dev/null, got %q", got)
	}
	for fd, name := range []string{"stdout", "stderr"} {
		ours, _ := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd+1))
		if got[fd+1] == ours || !strings.HasPrefix(got[fd+1], "pipe:") {
			t.Errorf("the command's %s is %s, the server's is %s; want a pipe of its own", name, got[fd+1], ours)
		}
	}
}

// TestKilledBySignal: a command killed by a signal is an error naming it.
// A command that is the first process of its PID namespace ignores the
// signals it sends itself (the kernel protects a namespace's init from its
// own namespace), so where commands run in one, this cannot be shown.
func TestKilledBySignal(t *testing.T) {
	t.Parallel()
	if namespaced(t) {
		t.Skip("a command that is the first process of its PID namespace cannot signal itself")
	}
	srv := build(t, tool(nil, "script: kill -TERM $$"))
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	if text := handlertest.Text(res); !res.IsError || text != "command killed by signal terminated" {
		t.Errorf("want a signal error, got isError=%v %q", res.IsError, text)
	}
}
