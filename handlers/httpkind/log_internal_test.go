package httpkind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// timeoutError is a net.Error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestShortError(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, tt := range []struct {
		err  error
		want string
	}{
		{fmt.Errorf("no response from http://h: %w", refused), "connection refused"},
		{fmt.Errorf("reading the response: %w", io.ErrUnexpectedEOF), "connection closed"},
		{fmt.Errorf("no response from http://h: %w", io.EOF), "connection closed"},
		{fmt.Errorf("no response from http://h: %w", timeoutError{}), "timeout"},
		{fmt.Errorf("no response from http://h: %w", errors.New("tls: bad certificate")), "tls: bad certificate"},
		{context.Canceled, "context canceled"},
	} {
		if got := shortError(tt.err); got != tt.want {
			t.Errorf("shortError(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestRoundDuration(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   time.Duration
		want string
	}{
		{734123 * time.Nanosecond, "734µs"},
		{250*time.Millisecond + 400*time.Microsecond, "250ms"},
		{1512 * time.Millisecond, "1.51s"},
		{90 * time.Second, "1m30s"},
	} {
		if got := roundDuration(tt.in); got != tt.want {
			t.Errorf("roundDuration(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStatusLine(t *testing.T) {
	t.Parallel()
	for code, want := range map[int]string{503: "503 Service Unavailable", 429: "429 Too Many Requests", 599: "599"} {
		if got := statusLine(code); got != want {
			t.Errorf("statusLine(%d) = %q, want %q", code, got, want)
		}
	}
}
