//go:build unix && !linux

package shellkind

import (
	"os/exec"
	"syscall"
)

// startIsolated starts cmd in a process group of its own, which the call
// kills when it ends. This system has no parent-death signal: commands
// running when mcpgen itself is killed are left running.
func startIsolated(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd.Start()
}
