package regfile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, 0)
	if err != nil || string(got) != "hello" {
		t.Fatalf("Read = %q, %v; want hello", got, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	got, err = ReadIn(root, "a.txt", 5)
	if err != nil || string(got) != "hello" {
		t.Fatalf("ReadIn = %q, %v; want hello", got, err)
	}
}

func TestReadTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 2048)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Read(path, 1024)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Read of 2KiB with a 1KiB cap: %v; want ErrTooLarge", err)
	}
	if got := Message(err); got != "file too large: larger than 1KiB" {
		t.Errorf("Message = %q", got)
	}
}

// TestReadRefusesSpecialFiles proves that nothing but a regular file is
// read, and that none of them blocks: a FIFO without a writer, a device
// that never ends, a socket and a directory each fail at once.
func TestReadRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tt := range []struct{ name, path, want string }{
		{"fifo", fifo, "not a regular file (a named pipe)"},
		{"device", "/dev/zero", "not a regular file (a character device)"},
		{"directory", dir, "not a regular file (a directory)"},
		{"socket", sock, "no such device or address"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.path, 0)
			if err == nil || Message(err) != tt.want {
				t.Fatalf("Read(%s) = %v; want %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestReadWouldBlock reads a regular file of /proc whose read waits for
// data; it fails at once (ErrWouldBlock) or is refused, never hangs.
func TestReadWouldBlock(t *testing.T) {
	if _, err := os.Stat("/proc/kmsg"); err != nil {
		t.Skip("no /proc/kmsg here")
	}
	_, err := Read("/proc/kmsg", 0)
	if err == nil {
		t.Fatal("reading /proc/kmsg succeeded")
	}
	if !errors.Is(err, ErrWouldBlock) && !errors.Is(err, os.ErrPermission) {
		t.Fatalf("reading /proc/kmsg: %v; want it to fail at once as it would block, or be refused", err)
	}
}

// TestReadAllDoesNotWait reads an open descriptor with no data yet (a pipe
// whose writer is silent): the read fails at once instead of waiting.
func TestReadAllDoesNotWait(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := readAll(r, 10); !errors.Is(err, ErrWouldBlock) {
		t.Fatalf("readAll of a silent pipe = %v; want ErrWouldBlock", err)
	}
}
