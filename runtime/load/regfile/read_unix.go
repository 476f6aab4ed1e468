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
	// room for what Stat reported and for the read that finds the end:
	// a file of megabytes is read without growing and copying the buffer
	size := int64(32 << 10)
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		size = min(st.Size(), limit) + 1
	}
	body := make([]byte, 0, size)
	for {
		if len(body) == cap(body) {
			body = append(body, 0)[:len(body)]
		}
		free := body[len(body):min(int64(cap(body)), limit+1)] // never far past limit
		var n int
		var rerr error
		err := raw.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), free)
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
		body = body[:len(body)+n]
		if int64(len(body)) > limit {
			return nil, tooLarge(limit)
		}
	}
}
