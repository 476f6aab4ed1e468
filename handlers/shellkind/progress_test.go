package shellkind_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// reported is one Progress call.
type reported struct {
	Done, Total float64
	Msg         string
}

// progressRecorder records the progress a call reports. Until release is
// closed (if it is not nil), Progress blocks, as a stuck client would.
type progressRecorder struct {
	release chan struct{}
	mu      sync.Mutex
	got     []reported
	last    chan struct{} // closed when a report reaches lastDone
	lastAt  float64
}

func (r *progressRecorder) Log(context.Context, slog.Level, string, map[string]any) {}

func (r *progressRecorder) Progress(_ context.Context, done, total float64, msg string) {
	if r.release != nil {
		<-r.release
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, reported{done, total, msg})
	if r.last != nil && done == r.lastAt {
		close(r.last)
	}
}

func (r *progressRecorder) reports() []reported {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got
}

func TestProgress(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes
	for _, tt := range []struct {
		name, handler string
		want          []reported
	}{
		{"pattern on stderr", `script: |
  for i in 1 2 3; do echo "step $i/3" >&2; done
  echo result
progress: {pattern: '(?P<done>\d+)/(?P<total>\d+)'}`,
			[]reported{{1, 3, "step 1/3"}, {2, 3, "step 2/3"}, {3, 3, "step 3/3"}}},
		{"pattern skips other lines and stdout", `script: |
  echo "2/9 on stdout"; echo starting >&2; echo "  4/9 files  " >&2; echo "x/9" >&2
progress: {pattern: '(?P<done>\d+)/(?P<total>\d+)'}`,
			[]reported{{4, 9, "4/9 files"}}},
		{"pattern on stdout", `script: 'echo 1/2; echo 2/2 >&2'
progress: {pattern: '(?P<done>\d+)/(?P<total>\d+)', from: stdout}`,
			[]reported{{1, 2, "1/2"}}},
		{"percentages redrawn with carriage returns", `script: printf '10%%\r55.5%%\r100%%\n' >&2
progress: {pattern: '(?P<done>[\d.]+)%', total: 100}`,
			[]reported{{10, 100, "10%"}, {55.5, 100, "55.5%"}, {100, 100, "100%"}}},
		{"lines count stdout, blank lines skipped", `script: printf 'a\n\n  \nb\r\nc'
progress: {lines: true}`,
			[]reported{{1, 0, "a"}, {2, 0, "b"}, {3, 0, "c"}}},
		{"lines on stderr with a total", `script: 'echo x; echo one >&2; echo two >&2'
progress: {lines: true, from: stderr, total: 2}`,
			[]reported{{1, 2, "one"}, {2, 2, "two"}}},
		{"lines past max_output are not read", `script: printf 'a\nb\nc\n'
max_output: 3
progress: {lines: true}`,
			[]reported{{1, 0, "a"}, {2, 0, "b"}}},
		{"long messages are cut", "script: echo " + long + "\nprogress: {lines: true}",
			[]reported{{1, 0, strings.Repeat("é", 100) + "…"}}},
		{"no progress config", `script: 'echo 1/2; echo 2/2 >&2'`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool(nil, tt.handler))
			var r progressRecorder
			res, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), &r)
			if err != nil || res.IsError {
				t.Fatalf("call failed: %v %q", err, handlertest.Text(res))
			}
			if diff := cmp.Diff(tt.want, r.reports()); diff != "" {
				t.Errorf("progress (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSlowClientGetsMergedProgress: a client that takes no progress does
// not hold the command back, and once it does, it gets the reports in
// order, merged, ending with the last.
func TestSlowClientGetsMergedProgress(t *testing.T) {
	t.Parallel()
	srv := build(t, tool(nil, `script: 'seq 1 5000'
progress: {lines: true}`))
	r := progressRecorder{release: make(chan struct{}), last: make(chan struct{}), lastAt: 5000}
	res, err := handlertest.CallTool(context.Background(), srv, "t", []byte(`{}`), &r)
	if err != nil || res.IsError || !strings.HasSuffix(handlertest.Text(res), "\n5000\n") {
		t.Fatalf("want the whole output, got %v %q", err, handlertest.Text(res))
	}
	close(r.release)
	<-r.last
	got := r.reports()
	// a batch taken before the client stalled, and the queue that waited
	if len(got) > 2*64 {
		t.Errorf("%d reports reached the client, want them merged", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i].Done <= got[i-1].Done {
			t.Fatalf("reports out of order: %v then %v", got[i-1], got[i])
		}
	}
	if last := got[len(got)-1]; last != (reported{5000, 0, "5000"}) {
		t.Errorf("last report %v, want 5000", last)
	}
}
