package transport

import (
	"io"
	"net"
	"time"
)

// deadlineReader is input whose waiting read a deadline interrupts.
type deadlineReader interface {
	io.Reader
	SetReadDeadline(t time.Time) error
}

// stdioInput returns in as input that stdioConn can read in the go-sdk's
// reading goroutine, and the function that releases it once serving
// ends. A pipe or socket is read as it is, made non-blocking (on Unix):
// a read that waits parks its goroutine, and a deadline ends it. Any
// other input (a terminal, a file, an io.Reader) is copied through an
// in-memory pipe by a goroutine of its own.
func stdioInput(in io.Reader) (deadlineReader, func()) {
	if r, release, ok := pollableInput(in); ok {
		return r, release
	}
	mine, theirs := net.Pipe()
	go func() {
		_, _ = io.Copy(theirs, in)
		_ = theirs.Close()
	}()
	return mine, func() { _ = mine.Close() }
}
