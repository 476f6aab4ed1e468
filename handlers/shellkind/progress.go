package shellkind

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
)

const (
	// maxProgressLine is how much of a line progress reads; the rest of a
	// longer line is ignored.
	maxProgressLine = 4 << 10
	// maxProgressMessage is the longest message a report carries.
	maxProgressMessage = 200
	// maxQueuedProgress is how many reports wait for a slow client; past
	// it the newest replaces the last waiting one.
	maxQueuedProgress = 64
)

// progressSpec is a compiled `progress`.
type progressSpec struct {
	stderr     bool           // read stderr, not stdout
	re         *regexp.Regexp // nil: each line is a step
	done       int            // index of the group `done` in re
	total      int            // index of the group `total` in re, or -1
	fixedTotal float64        // the total when the output gives none
}

// buildProgress checks and compiles `progress`; nil without one.
func (c *Config) buildProgress(env handlers.BuildEnv) *progressSpec {
	p := c.Progress
	if p == nil {
		return nil
	}
	switch {
	case !p.Lines && p.Pattern == "":
		env.Diag("progress", "progress needs `lines: true` (each line is a step) or a `pattern` with a (?P<done>...) group")
		return nil
	case p.Total < 0:
		env.Diag("progress.total", "the total cannot be negative")
		return nil
	}
	ps := &progressSpec{stderr: p.From == "stderr", total: -1, fixedTotal: p.Total}
	if p.Pattern == "" {
		return ps
	}
	ps.stderr = p.From != "stdout"
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		env.Diag("progress.pattern", "not a regular expression: "+strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		return nil
	}
	ps.re, ps.done = re, re.SubexpIndex("done")
	if ps.done < 0 {
		env.Diag("progress.pattern", `the pattern needs a group named done for the progress so far, as in (?P<done>\d+)/(?P<total>\d+)`)
		return nil
	}
	ps.total = re.SubexpIndex("total")
	return ps
}

// report is one progress notification.
type report struct {
	done, total float64
	msg         string
}

// progress turns one call's output lines into reports and sends them to
// the client from a goroutine of its own, so that a slow client never
// blocks the command. Reports the client has not taken yet are kept up to
// maxQueuedProgress; past that the newest replaces the last one waiting.
type progress struct {
	spec   *progressSpec
	redact func(string) string
	lines  float64 // lines seen, for spec.re == nil

	partial []byte // the line being read, up to maxProgressLine bytes

	mu     sync.Mutex
	queue  []report
	closed bool
	wake   chan struct{} // holds a token when queue or closed changed
	done   chan struct{} // closed when every report was sent
}

// startProgress starts sending progress to n; nil without `progress`.
func (h *handler) startProgress(ctx context.Context, n handlers.Notifier) *progress {
	if h.progress == nil {
		return nil
	}
	p := &progress{spec: h.progress, redact: h.redact, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.send(ctx, n)
	return p
}

// reader returns p if it reads stderr (stderr true) or stdout (false).
func (p *progress) reader(stderr bool) *progress {
	if p == nil || p.spec.stderr != stderr {
		return nil
	}
	return p
}

// Write splits the stream into lines; a line ends at '\n' or '\r'.
func (p *progress) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			p.keep(b)
			break
		}
		p.keep(b[:i])
		p.endLine()
		b = b[i+1:]
	}
	return n, nil
}

func (p *progress) keep(b []byte) {
	room := maxProgressLine - len(p.partial)
	if len(b) > room {
		b = b[:room]
	}
	p.partial = append(p.partial, b...)
}

// endLine reports the line read, if it is progress.
func (p *progress) endLine() {
	line := p.partial
	p.partial = p.partial[:0]
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	r := report{total: p.spec.fixedTotal}
	if p.spec.re == nil {
		p.lines++
		r.done = p.lines
	} else if !p.spec.parse(line, &r) {
		return
	}
	r.msg = string(line) // made a message by the sender, only if it is sent
	p.mu.Lock()
	if len(p.queue) < maxQueuedProgress {
		p.queue = append(p.queue, r)
	} else {
		p.queue[len(p.queue)-1] = r
	}
	p.mu.Unlock()
	p.signal()
}

// parse reads done and total from a line matching the pattern.
func (s *progressSpec) parse(line []byte, r *report) bool {
	m := s.re.FindSubmatchIndex(line)
	if m == nil {
		return false
	}
	done, ok := number(line, m, s.done)
	if !ok {
		return false
	}
	r.done = done
	if total, ok := number(line, m, s.total); ok {
		r.total = total
	}
	return true
}

// number parses group i of a match m of line; false if the group is absent
// (i < 0), did not take part or is not a number.
func number(line []byte, m []int, i int) (float64, bool) {
	if i < 0 || m[2*i] < 0 {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(line[m[2*i]:m[2*i+1]]), 64)
	return f, err == nil
}

// message is a line trimmed and cut to maxProgressMessage bytes.
func message(line string) string {
	line = strings.TrimSpace(line)
	if len(line) <= maxProgressMessage {
		return line
	}
	cut := maxProgressMessage
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}

func (p *progress) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// close ends the last line of the stream and lets the sender finish once
// every report was sent. Call it once the stream was read.
func (p *progress) close() {
	if p == nil {
		return
	}
	p.endLine()
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.signal()
}

// finished is closed when every report was sent (at once for nil).
func (p *progress) finished() <-chan struct{} {
	if p == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return p.done
}

// send delivers the reports in order until p is closed.
func (p *progress) send(ctx context.Context, n handlers.Notifier) {
	defer close(p.done)
	for range p.wake {
		p.mu.Lock()
		batch, closed := p.queue, p.closed
		p.queue = nil
		p.mu.Unlock()
		for _, r := range batch {
			n.Progress(ctx, r.done, r.total, message(p.redact(r.msg)))
		}
		if closed {
			return
		}
	}
}
