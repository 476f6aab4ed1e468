package httpkind_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// jobAPI answers POST /jobs with 202 and a Location ("ABS" for the
// absolute URL of /jobs/7), then reports the job running (202, or 200 with
// state running when states is set) for polls polls, then done.
func jobAPI(t *testing.T, polls int32, states bool, location string) (*recorder, *atomic.Int32) {
	var seen atomic.Int32
	var r *recorder
	r = newRecorder(t, func(w http.ResponseWriter, req *http.Request) {
		switch {
		case req.Method == "POST" && req.URL.Path == "/jobs":
			if location == "ABS" {
				location = r.URL + "/jobs/7"
			}
			w.Header().Set("Location", location)
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusAccepted)
		case req.Method == "GET" && req.URL.Path == "/jobs/7":
			if seen.Add(1) <= polls {
				if states {
					jsonReply(200, map[string]any{"state": "running"})(w, req)
					return
				}
				w.WriteHeader(http.StatusAccepted)
				return
			}
			jsonReply(200, map[string]any{"state": "done", "rows": 42})(w, req)
		case req.Method == "DELETE":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	})
	return r, &seen
}

func pollTool(poll string) string {
	return "  - name: export\n    description: Exports.\n    handler:\n      backend: api\n      method: POST\n      path: /jobs\n" +
		"      text: '{{ .result.state }} {{ .result.rows }}'\n" + indent(poll, "      ")
}

// TestPoll: a 202 with a Location is polled until the job answers
// otherwise; the last answer is the result. With `until`, a status that
// answers 200 while running is polled until the expression says done.
func TestPoll(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, poll string
		states     bool
		location   string
	}{
		{"202 until done", "poll: {interval: 1ms}", false, "/jobs/7"},
		{"200 until the state says", "poll: {interval: 1ms, until: \"${{ response.body.state == 'done' }}\"}", true, "/jobs/7"},
		{"absolute location", "poll: {interval: 1ms}", false, "ABS"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api, seen := jobAPI(t, 3, tt.states, tt.location)
			srv := build(t, withBackend(api.URL, "", pollTool(tt.poll)))
			if got := mustSucceed(t, call(t, srv, "export", `{}`)); got != "done 42" {
				t.Errorf("result %q; want %q", got, "done 42")
			}
			if n := seen.Load(); n != 4 {
				t.Errorf("%d polls; want 4", n)
			}
		})
	}
}

// TestPollRefuses: a 202 without a Location, or with one on another host,
// is an error; without poll, a 202 is the answer.
func TestPollRefuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ location, want string }{
		{"", "without a Location"},
		{"http://elsewhere.example/jobs/7", "another host"},
	} {
		api, _ := jobAPI(t, 0, false, tt.location)
		srv := build(t, withBackend(api.URL, "", pollTool("poll: {interval: 1ms}")))
		if got := mustFail(t, call(t, srv, "export", `{}`)); !strings.Contains(got, tt.want) {
			t.Errorf("Location %q: %q; want it to say %q", tt.location, got, tt.want)
		}
	}
	api, seen := jobAPI(t, 0, false, "/jobs/7")
	srv := build(t, withBackend(api.URL, "", pollTool("")))
	call(t, srv, "export", `{}`)
	if seen.Load() != 0 {
		t.Error("a tool without poll polled")
	}
}

// TestPollCancel: a cancelled call stops polling at once and, with
// cancel: true, deletes the job.
func TestPollCancel(t *testing.T) {
	t.Parallel()
	api, seen := jobAPI(t, 1<<30, false, "/jobs/7")
	srv := build(t, withBackend(api.URL, "", pollTool("poll: {interval: 1ms, cancel: true}")))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		handlertest.Call(t, ctx, srv, "export", `{}`)
	}()
	deadline := time.Now().Add(time.Minute)
	for seen.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the call went on after it was cancelled")
	}
	deleted := false
	for _, r := range api.requests() {
		deleted = deleted || r.Method == "DELETE" && r.Path == "/jobs/7"
	}
	if !deleted {
		t.Error("the job was not deleted")
	}
	time.Sleep(20 * time.Millisecond) // an aborted poll may still reach the server
	polls := seen.Load()
	time.Sleep(50 * time.Millisecond) // fifty intervals: a poller still running would poll again
	if seen.Load() != polls {
		t.Error("polling went on after the call was cancelled")
	}
}
