package shellkind

import (
	"errors"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
)

// noNamespace is set once starting a command in a PID namespace of its own
// failed for want of privileges: later commands start without one.
var noNamespace atomic.Bool

// startIsolated starts cmd so that nothing it runs outlives mcpgen or the
// call:
//
//   - its process group is its own, which the call kills when it ends;
//   - it gets SIGKILL when mcpgen dies, even by SIGKILL or the OOM killer
//     (the parent-death signal);
//   - where the system allows it, it is the first process of a new PID
//     namespace: when it dies, the kernel kills every process left in the
//     namespace, including those that left its process group and session
//     (setsid, double forks), which no signal to a group reaches.
//
// Without the privileges for a namespace (a container without
// CAP_SYS_ADMIN, unprivileged user namespaces turned off), commands start
// with the first two guarantees only.
func startIsolated(cmd *exec.Cmd) error {
	if !noNamespace.Load() {
		cmd.SysProcAttr = namespaced()
		err := cmd.Start()
		if err == nil || !namespaceRefused(err) {
			return err
		}
		noNamespace.Store(true)
		// a Cmd starts once: try again with a fresh one
		*cmd = exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir,
			Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd.Start()
}

// namespaced starts the command in a new PID namespace: directly when
// mcpgen runs as root, else inside a new user namespace that maps the
// user's own uid and gid, so that the command runs as the same user.
func namespaced() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: syscall.CLONE_NEWPID}
	if uid := os.Geteuid(); uid != 0 {
		gid := os.Getegid()
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	return attr
}

// namespaceRefused tells whether err says the system refused to create
// the namespaces (rather than, say, the program not existing).
func namespaceRefused(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EINVAL) ||
		errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EACCES) && !isExecError(err)
}

// isExecError tells whether err came from executing the program (a file
// without execute permission), not from creating the namespaces.
func isExecError(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe)
}
