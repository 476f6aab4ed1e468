//go:build unix

package shellkind

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// waitDelay bounds how long, once the command has exited and its process
// group was killed, mcpgen waits for its output pipes to close: only a
// process that left the group (setsid) can hold them open longer.
const waitDelay = 2 * time.Second

// pipes are the parent's ends of the child's standard streams.
type pipes struct {
	out, err *os.File
	in       *os.File // nil without stdin
}

// run starts inv in a process group of its own, feeds stdin, collects
// stdout (capped) and stderr (logged line by line) and waits. When ctx ends
// or the handler is closed, the whole group is killed; when the command
// exits, whatever it left running in its group is killed too.
func (h *handler) run(ctx context.Context, inv *invocation, n handlers.Notifier) (*outcome, error) {
	select {
	case <-h.closed:
		return nil, errors.New("the server is shutting down")
	default:
	}
	cmd := exec.Command(inv.path, inv.argv[1:]...)
	cmd.Args[0] = inv.argv[0]
	cmd.Env, cmd.Dir = inv.env, h.dir
	p, err := start(cmd, inv.stdin != nil)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", inv.argv[0], err)
	}
	o, log, pr := &outcome{}, h.startLog(ctx, n), h.startProgress(ctx, n)
	var wg sync.WaitGroup
	wg.Go(func() { o.stdout, o.truncated = readCapped(p.out, h.maxOutput, pr.reader(false)) })
	wg.Go(func() { o.stderr = logStderr(p.err, log, pr.reader(true)) })
	if p.in != nil {
		wg.Go(func() { writeStdin(p.in, inv.stdin) })
	}
	o.state, o.stopped = h.wait(ctx, cmd)
	killGroup(cmd.Process.Pid) // background processes the command left behind
	drain(&wg, p)
	pr.close()
	// logs and progress go before the result, unless the client is stuck
	timeout := time.After(waitDelay)
	for _, done := range []<-chan struct{}{log.done, pr.finished()} {
		select {
		case <-done:
		case <-timeout:
		}
	}
	return o, nil
}

// start creates the pipes and starts cmd; the child's ends are closed in
// the parent once it runs.
func start(cmd *exec.Cmd, stdin bool) (*pipes, error) {
	var p pipes
	var child []*os.File
	defer func() {
		for _, f := range child {
			f.Close()
		}
	}()
	var err error
	var w *os.File
	if p.out, w, err = os.Pipe(); err != nil {
		return nil, err
	}
	child, cmd.Stdout = append(child, w), w
	if p.err, w, err = os.Pipe(); err != nil {
		p.close()
		return nil, err
	}
	child, cmd.Stderr = append(child, w), w
	if stdin {
		var r *os.File
		if r, p.in, err = os.Pipe(); err != nil {
			p.close()
			return nil, err
		}
		child, cmd.Stdin = append(child, r), r
	}
	if err := startIsolated(cmd); err != nil {
		p.close()
		return nil, err
	}
	return &p, nil
}

func (p *pipes) close() {
	for _, f := range []*os.File{p.out, p.err, p.in} {
		if f != nil {
			f.Close()
		}
	}
}

// wait waits for the command to exit, killing its group first if ctx ends
// or the handler is closed.
func (h *handler) wait(ctx context.Context, cmd *exec.Cmd) (*os.ProcessState, stop) {
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait() // the state says how it ended; pipes are ours
		close(done)
	}()
	why := notStopped
	select {
	case <-done:
		return cmd.ProcessState, notStopped
	case <-ctx.Done():
		why = stoppedByContext
	case <-h.closed:
		why = stoppedByClose
	}
	killGroup(cmd.Process.Pid)
	<-done
	return cmd.ProcessState, why
}

// killGroup kills every process of the group led by pid. The group
// outlives its leader while any member lives, so this reaches what the
// command left behind; an empty group is not an error.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}

// drain waits for the stream goroutines, cutting the pipes after
// waitDelay.
func drain(wg *sync.WaitGroup, p *pipes) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitDelay):
		now := time.Now()
		for _, f := range []*os.File{p.out, p.err} {
			_ = f.SetReadDeadline(now)
		}
		if p.in != nil {
			_ = p.in.SetWriteDeadline(now)
		}
		<-done
	}
	p.close()
}

// writeStdin feeds the command; a command that does not read all of it
// (a broken pipe) is not an error.
func writeStdin(w *os.File, data []byte) {
	_, _ = w.Write(data)
	_ = w.Close()
}

// exitStatus describes how a command ended, or "" for a clean exit with an
// ok status. sigpipe reports death by a broken pipe.
func exitStatus(state *os.ProcessState) (code int, signal string, sigpipe bool) {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return -1, ws.Signal().String(), ws.Signal() == syscall.SIGPIPE
	}
	return state.ExitCode(), "", false
}
