//go:build unix

package regfile

import (
	"errors"
	"os"
	"syscall"
)

// readAll reads f to its end, failing past limit bytes, with plain read(2)
// calls on its descriptor: it never waits on the runtime's poller, so a
// descriptor that has no data yet fails at once.
func readAll(f *os.File, limit int64) ([]byte, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var body []byte
	buf := make([]byte, 32<<10)
	for {
		var n int
		var rerr error
		err := raw.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), buf)
			return true // never wait for readiness
		})
		if err == nil {
			err = rerr
		}
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return nil, ErrWouldBlock
		case err != nil:
			return nil, err
		case n == 0:
			return body, nil
		}
		body = append(body, buf[:n]...)
		if int64(len(body)) > limit {
			return nil, tooLarge(limit)
		}
	}
}
