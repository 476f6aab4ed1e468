//go:build unix

package transport

import (
	"io"
	"os"
	"syscall"
)

// pollableInput returns a pipe or socket in as a file of its own, made
// non-blocking so that the runtime's poller waits for it. The flag stays
// on the pipe when serving ends: mcpgen exits then.
func pollableInput(in io.Reader) (deadlineReader, func(), bool) {
	f, ok := in.(*os.File)
	if !ok {
		return nil, nil, false
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return nil, nil, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	dup, derr := -1, error(nil)
	if err := rc.Control(func(fd uintptr) { dup, derr = syscall.Dup(int(fd)) }); err != nil || derr != nil {
		return nil, nil, false
	}
	if err := syscall.SetNonblock(dup, true); err != nil {
		_ = syscall.Close(dup)
		return nil, nil, false
	}
	own := os.NewFile(uintptr(dup), f.Name())
	return own, func() { _ = own.Close() }, true
}
