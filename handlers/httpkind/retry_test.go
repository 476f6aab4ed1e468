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

// sequence answers the n-th request with replies[n] (the last one repeats).
func sequence(replies ...http.HandlerFunc) http.HandlerFunc {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		i := min(int(n.Add(1))-1, len(replies)-1)
		replies[i](w, r)
	}
}

func status(code int, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
	}
}

// drop closes the connection without answering.
func drop(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	ok := jsonReply(200, map[string]any{"ok": true})
	fast := "retries: {backoff: 1ms}\n"
	for _, tt := range []struct {
		name, handler string
		reply         http.HandlerFunc
		wantOK        bool
		wantRequests  int
	}{
		{"500 then 200 is retried", fast, sequence(status(500), ok), true, 2},
		{"503 twice then 200", fast, sequence(status(503), status(503), ok), true, 3},
		{"gives up after max retries", fast, status(502), false, 3},
		{"a dropped connection is retried", fast, sequence(drop, ok), true, 2},
		{"POST is not retried", fast + "method: POST", sequence(status(503), ok), false, 1},
		{"POST marked idempotent is retried", fast + "method: POST\nidempotent: true", sequence(status(503), ok), true, 2},
		{"404 is not retried", fast, sequence(status(404), ok), false, 1},
		{"retries off", "retries: {max: 0}", sequence(status(503), ok), false, 1},
		{"Retry-After longer than max_backoff is not waited for", "retries: {max_backoff: 1s}", sequence(status(429, "Retry-After", "3600"), ok), false, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, tt.reply)
			s := build(t, withBackend(srv.URL, "", tool("", tt.handler)))
			res := call(t, s, "t", `{}`)
			if res.IsError == tt.wantOK {
				t.Errorf("isError = %v: %s", res.IsError, handlertest.Text(res))
			}
			if n := len(srv.requests()); n != tt.wantRequests {
				t.Errorf("the server received %d requests, want %d", n, tt.wantRequests)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, sequence(status(429, "Retry-After", "1"), jsonReply(200, map[string]any{"ok": true})))
	s := build(t, withBackend(srv.URL, "retries: {backoff: 1ms}\n", tool("", "")))
	start := time.Now()
	mustSucceed(t, call(t, s, "t", `{}`))
	if n := len(srv.requests()); n != 2 {
		t.Fatalf("want 2 requests, got %d", n)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After asked for 1s", d)
	}
}

func TestRateLimitMessage(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, status(429, "Retry-After", "120"))
	s := build(t, withBackend(srv.URL, "retries: {max_backoff: 1s}\n", tool("", "")))
	if got := mustFail(t, call(t, s, "t", `{}`)); !strings.Contains(got, "retry after 2m0s") {
		t.Errorf("error %q does not say when to retry", got)
	}
}

// hanging is a server that never answers; aborted receives once per request
// whose connection the client gave up.
func hanging(t *testing.T) (*recorder, chan struct{}) {
	aborted := make(chan struct{}, 8)
	srv := newRecorder(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			aborted <- struct{}{}
		case <-time.After(30 * time.Second):
		}
	})
	return srv, aborted
}

func waitAborted(t *testing.T, aborted chan struct{}) {
	t.Helper()
	select {
	case <-aborted:
	case <-time.After(5 * time.Second):
		t.Error("the server never saw the request aborted")
	}
}

func TestTimeoutAbortsTheRequest(t *testing.T) {
	t.Parallel()
	srv, aborted := hanging(t)
	s := build(t, withBackend(srv.URL, "timeout: 200ms\n", tool("", "")))
	if got := mustFail(t, call(t, s, "t", `{}`)); !strings.Contains(got, "timed out after 200ms") {
		t.Errorf("error %q does not say it timed out", got)
	}
	waitAborted(t, aborted)
}

func TestCancellationAbortsTheRequest(t *testing.T) {
	t.Parallel()
	srv, aborted := hanging(t)
	s := build(t, withBackend(srv.URL, "", tool("", "")))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	mustFail(t, handlertest.Call(t, ctx, s, "t", `{}`))
	waitAborted(t, aborted)
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	other := newRecorder(t, jsonReply(200, map[string]any{"stolen": true}))
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/collect", http.StatusFound)
		case "/moved":
			http.Redirect(w, r, "/here", http.StatusMovedPermanently)
		default:
			jsonReply(200, map[string]any{"path": r.URL.Path, "auth": r.Header.Get("Authorization") != ""})(w, r)
		}
	})
	cfg := withBackend(srv.URL, "auth:\n  bearer: tok-123456\n",
		tool("- {name: p, required: true}", "path: /${{ args.p }}"))
	s := build(t, cfg)
	if got := mustFail(t, call(t, s, "t", `{"p": "away"}`)); !strings.Contains(got, "not followed") {
		t.Errorf("error %q does not say the redirect was not followed", got)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other host received %d requests", n)
	}
	got := mustSucceed(t, call(t, s, "t", `{"p": "moved"}`))
	if !strings.Contains(got, `"path": "/here"`) || !strings.Contains(got, `"auth": true`) {
		t.Errorf("same-host redirect not followed with credentials: %s", got)
	}
}

func TestRedirectMethods(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/see-other":
			http.Redirect(w, r, "/done", http.StatusSeeOther)
		case "/temporary":
			http.Redirect(w, r, "/done", http.StatusTemporaryRedirect)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			jsonReply(200, map[string]any{"ok": true})(w, r)
		}
	})
	s := build(t, withBackend(srv.URL, "", tool("- {name: p, required: true}",
		"method: POST\npath: /${{ args.p }}\nbody:\n  json: {a: 1}")))
	for _, tt := range []struct {
		path, method, body string
	}{
		{"see-other", "GET", ""},
		{"temporary", "POST", `{"a":1}`},
	} {
		mustSucceed(t, call(t, s, "t", `{"p": "`+tt.path+`"}`))
		got := srv.last(t)
		if got.Path != "/done" || got.Method != tt.method || got.Body != tt.body {
			t.Errorf("after %s: %s %s %q, want %s /done %q", tt.path, got.Method, got.Path, got.Body, tt.method, tt.body)
		}
	}
	if got := mustFail(t, call(t, s, "t", `{"p": "loop"}`)); !strings.Contains(got, "stopped after 5 redirects") {
		t.Errorf("a redirect loop gave %q", got)
	}
}

func TestRedirectLoopsAreNotRetried(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/again", http.StatusFound) })
	s := build(t, withBackend(srv.URL, "retries: {backoff: 1ms}\n", tool("", "")))
	mustFail(t, call(t, s, "t", `{}`))
	if n := len(srv.requests()); n != 6 {
		t.Errorf("%d requests, want 6 (one and five redirects, no retry)", n)
	}
}

func TestTokenFailuresAreNotRetried(t *testing.T) {
	t.Parallel()
	tokens := newRecorder(t, jsonReply(401, map[string]any{"error": "invalid_client"}))
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, oauthConfig(tokens.URL)+"retries: {backoff: 1ms}\n", tool("", "")))
	if got := mustFail(t, call(t, s, "t", `{}`)); !strings.Contains(got, "oauth2 token request: HTTP 401 invalid_client") {
		t.Errorf("got %q", got)
	}
	if n := len(tokens.requests()); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

func TestConnectionErrorMessages(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, drop)
	s := build(t, withBackend(srv.URL+"/api", "retries: {max: 0}\nauth: {api_key: {query: k, value: sec-12345}}\n", tool("", "path: /x")))
	if got, want := mustFail(t, call(t, s, "t", `{}`)), "no response from "+srv.URL+": EOF"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCallerDeadlineIsNotTheTimeout(t *testing.T) {
	t.Parallel()
	srv, aborted := hanging(t)
	s := build(t, withBackend(srv.URL, "", tool("", "")))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	got := mustFail(t, handlertest.Call(t, ctx, s, "t", `{}`))
	if strings.Contains(got, "timed out after 30s") {
		t.Errorf("the caller's deadline was reported as the handler's timeout: %q", got)
	}
	waitAborted(t, aborted)
}
