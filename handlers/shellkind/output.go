package shellkind

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
)

const (
	// stderrTail is how much of the end of stderr an error result quotes.
	stderrTail = 4 << 10
	// maxLogLines is how many stderr lines one call sends to the client.
	maxLogLines = 1000
	// maxLogLine is the longest stderr line sent whole; longer lines are
	// sent in pieces.
	maxLogLine = 4 << 10
)

// outcome is what a finished command left.
type outcome struct {
	stdout    []byte
	truncated bool   // stdout reached max_output
	stderr    []byte // the end of stderr
	state     *os.ProcessState
	stopped   stop // why mcpgen killed it, if it did
}

// stop says why mcpgen killed a command before it exited.
type stop int

const (
	notStopped stop = iota
	stoppedByContext
	stoppedByClose
)

// readCapped reads r up to max bytes, passing them to pr as they come if
// pr is not nil. Past max it closes r, so the writer gets a broken pipe
// instead of blocking, and reports the truncation.
func readCapped(r io.ReadCloser, max int64, pr *progress) ([]byte, bool) {
	var kept io.Reader = io.LimitReader(r, max)
	if pr != nil {
		kept = io.TeeReader(kept, pr)
	}
	b, _ := io.ReadAll(kept)
	if n, _ := io.ReadFull(r, make([]byte, 1)); n == 0 {
		return b, false
	}
	_ = r.Close()
	return b, true
}

// stderrLog sends stderr lines to the client from a goroutine of its own,
// so that a slow client never blocks the command. It holds every line that
// will be sent, so sending to it never blocks either.
type stderrLog struct {
	lines chan string
	done  chan struct{} // closed when every line was sent
}

func (h *handler) startLog(ctx context.Context, n handlers.Notifier) *stderrLog {
	l := &stderrLog{lines: make(chan string, maxLogLines+1), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for line := range l.lines {
			n.Log(ctx, slog.LevelDebug, h.redact(line), nil)
		}
	}()
	return l
}

// logStderr queues each line of r for the client, passes r to pr if it is
// not nil, and returns the end of the stream.
func logStderr(r io.Reader, l *stderrLog, pr *progress) []byte {
	defer close(l.lines)
	br := bufio.NewReaderSize(r, maxLogLine)
	var tail []byte
	for lines := 1; ; lines++ {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if pr != nil {
				_, _ = pr.Write(line)
			}
			tail = append(tail, line...)
			if len(tail) > 2*stderrTail {
				tail = slices.Clone(tail[len(tail)-stderrTail:])
			}
			switch {
			case lines <= maxLogLines:
				l.lines <- strings.TrimRight(string(line), "\r\n")
			case lines == maxLogLines+1:
				l.lines <- fmt.Sprintf("further stderr lines are not sent (more than %d)", maxLogLines)
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	if len(tail) > stderrTail {
		tail = tail[len(tail)-stderrTail:]
	}
	return tail
}

// result maps a finished command to a tool result.
func (h *handler) result(o *outcome) (*handlers.Result, error) {
	code, signal, sigpipe := exitStatus(o.state)
	if o.truncated && (sigpipe || code == 128+13) {
		// mcpgen stopped reading: the broken pipe (or a shell's status
		// for it, 128+SIGPIPE) is ours, not the command's failure.
		code, signal = h.okCodes[0], ""
	}
	switch {
	case signal != "":
		return h.failure(fmt.Sprintf("command killed by signal %s", signal), o), nil
	case signal == "" && !slices.Contains(h.okCodes, code):
		return h.failure(fmt.Sprintf("command failed with exit status %d", code), o), nil
	}
	stdout := h.redact(string(o.stdout))
	if h.json {
		return h.jsonResult(stdout, o.truncated)
	}
	if o.truncated {
		stdout += h.truncationNote()
	}
	return handlers.TextResult(stdout), nil
}

func (h *handler) truncationNote() string {
	return fmt.Sprintf("\n[output truncated: the command wrote more than %s (max_output); the rest was dropped]",
		spec.Size(h.maxOutput))
}

// failure is an error result with the status, the end of stderr and stdout.
func (h *handler) failure(status string, o *outcome) *handlers.Result {
	var b strings.Builder
	b.WriteString(h.withStderr(status, o).Error())
	if len(o.stdout) > 0 {
		b.WriteString("\nstdout:\n")
		b.WriteString(h.redact(string(o.stdout)))
		if o.truncated {
			b.WriteString(h.truncationNote())
		}
	}
	res := handlers.TextResult(b.String())
	res.IsError = true
	return res
}

// withStderr is msg followed by the end of stderr, if any.
func (h *handler) withStderr(msg string, o *outcome) error {
	tail := strings.TrimRight(string(o.stderr), "\n")
	if tail == "" {
		return errors.New(msg)
	}
	if i := strings.IndexByte(tail, '\n'); len(o.stderr) >= stderrTail && i >= 0 {
		tail = "…" + tail[i+1:] // start at a line boundary
	}
	return fmt.Errorf("%s\nstderr:\n%s", msg, h.redact(tail))
}

// jsonResult parses stdout as one JSON value.
func (h *handler) jsonResult(stdout string, truncated bool) (*handlers.Result, error) {
	if truncated {
		return nil, fmt.Errorf("output truncated: the command wrote more than %s (max_output), which cannot be parsed as JSON",
			spec.Size(h.maxOutput))
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the command's output is not JSON (output: json): %w", err)
	}
	if strings.TrimSpace(stdout[dec.InputOffset():]) != "" {
		return nil, errors.New("the command's output holds more than one JSON value (output: json)")
	}
	v = handlers.Numbers(v)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{"result": v}
	}
	return &handlers.Result{Structured: v}, nil
}
