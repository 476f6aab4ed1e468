// Package regfile reads files that a config points at without letting them
// hang or exhaust mcpgen: only regular files are read, opened without
// blocking, and only up to a size cap. A FIFO, a device (/dev/zero), a socket
// or a directory is refused before a byte is read, and a file that would
// block (/proc/kmsg) fails at once instead of waiting.
package regfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// DefaultLimit is the size cap for files read at load and build time:
// config files, init scripts, certificates, embedded content.
const DefaultLimit = 16 << 20

// ErrNotRegular says a path names something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge says a file is over the size cap.
var ErrTooLarge = errors.New("file too large")

// ErrWouldBlock says reading a file would wait for data that may never come.
var ErrWouldBlock = errors.New("reading it would block")

// openFlags open for reading without waiting (a FIFO's open blocks until a
// writer comes), without becoming a controlling terminal and without
// following a final symbolic link to a device any differently than a file.
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// Read reads the regular file at path, refusing anything larger than limit
// bytes (DefaultLimit when limit <= 0).
func Read(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, path, limit)
}

// ReadIn reads the regular file name inside root, as Read does; root
// refuses names that leave it.
func ReadIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, name, limit)
}

// readOpen checks that f is a regular file no larger than limit and reads
// it, straight from its descriptor: a file whose read would block (a
// regular file of /proc such as kmsg) fails with ErrWouldBlock rather than
// parking the caller until data arrives.
func readOpen(f *os.File, name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, describe(st.Mode()))}
	}
	if st.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: tooLarge(limit)}
	}
	body, err := readAll(f, limit)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return body, nil
}

func tooLarge(limit int64) error {
	return fmt.Errorf("%w: larger than %s", ErrTooLarge, size(limit))
}

// size writes n bytes the way configs write sizes.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// describe names a file type for a message.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a regular file"
}

// Message says what went wrong reading a file, for a diagnostic: the
// reason without the path, which the diagnostic's position already gives.
func Message(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err.Error()
}
