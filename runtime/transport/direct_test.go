package transport_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const blockCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"block"}}`

// streamStart posts a call of the blocking tool and returns the ID of the
// priming event of its stream, with a function that drops the stream.
func streamStart(t *testing.T, p *probe, base, session string) (lastID string, drop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(testCtx(t))
	resp := rawRequest{session: true, body: blockCall}.do(t, ctx, base, session)
	<-p.started
	sc := bufio.NewScanner(resp.Body)
	for lastID == "" && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			lastID = v
		}
	}
	if !strings.HasPrefix(lastID, "mcpgen-") {
		t.Fatalf("the priming event of a long call's stream has the ID %q, not one of mcpgen's own streams (Content-Type %q)",
			lastID, resp.Header.Get("Content-Type"))
	}
	return lastID, func() { cancel(); resp.Body.Close() }
}

// resumeGET resumes the stream whose last event was lastID.
func resumeGET(t *testing.T, base, session, lastID string) *http.Response {
	t.Helper()
	return rawRequest{method: http.MethodGet, session: true, header: map[string]string{"Last-Event-ID": lastID}}.do(t, testCtx(t), base, session)
}

// wantCall3 checks that a resumed stream gave the response to call 3.
func wantCall3(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	defer resp.Body.Close()
	if msgs := sseMessages(t, resp.Body); resp.StatusCode != http.StatusOK || len(msgs) != 1 || jsonString(msgs[0]["id"]) != "3" {
		t.Errorf("%s: HTTP %d, %v; want the result of call 3", what, resp.StatusCode, msgs)
	}
}

// A long quiet call of a stateful session has a stream only the session
// that made it may resume; a stranger's resumption is refused and leaves
// the call running.
func TestHTTPResumeIsTheSessions(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{ResumeWindow: time.Minute})
	mine, other := rawSession(t, base), rawSession(t, base)
	lastID, drop := streamStart(t, p, base, mine)
	drop()
	resp := resumeGET(t, base, other, lastID)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("another session resuming %s: HTTP %d, want 404", lastID, resp.StatusCode)
	}
	if n := p.canceled.Load(); n != 0 {
		t.Errorf("the call was canceled by a stranger's resumption")
	}
	got := make(chan *http.Response, 1)
	go func() { got <- resumeGET(t, base, mine, lastID) }()
	close(p.release)
	wantCall3(t, "own resumption", <-got)
}

// A response that comes while no client carries the stream waits for a
// resumption within the window, and may be fetched again within it (the
// connection may drop while it is on its way).
func TestHTTPResumeAfterTheCallEnded(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{ResumeWindow: time.Minute})
	session := rawSession(t, base)
	lastID, drop := streamStart(t, p, base, session)
	drop()
	time.Sleep(50 * time.Millisecond) // the server notices the drop
	close(p.release)
	time.Sleep(50 * time.Millisecond) // the call ends with nobody listening
	wantCall3(t, "resumed after the end", resumeGET(t, base, session, lastID))
	if p.canceled.Load() != 0 {
		t.Errorf("the call was canceled")
	}
	wantCall3(t, "second resumption", resumeGET(t, base, session, lastID))
}

// Without a resume window, a long call whose client goes away is canceled
// at once.
func TestHTTPNoResumeWindowCancels(t *testing.T) {
	t.Parallel()
	p := newProbe(true)
	_, base, _ := serve(t, handlers.NewRegistry(p.kind()), blockConfig, nil, transport.HTTPOptions{ResumeWindow: -1})
	session := rawSession(t, base)
	_, drop := streamStart(t, p, base, session)
	drop()
	waitFor(t, "the call to be canceled", func() bool { return p.canceled.Load() == 1 })
}

// A session used only by quick calls, answered without the go-sdk's
// transport, stays open past its idle timeout as long as calls come.
func TestHTTPDirectCallsKeepTheSession(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, plainConfig, nil, transport.HTTPOptions{SessionTimeout: 400 * time.Millisecond})
	session := rawSession(t, base)
	const echo = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	for i := range 8 {
		resp := rawRequest{session: true, body: echo}.do(t, testCtx(t), base, session)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"hi"`) {
			t.Fatalf("call %d, %v after the session opened: HTTP %d %s", i, time.Duration(i)*150*time.Millisecond, resp.StatusCode, b)
		}
		time.Sleep(150 * time.Millisecond)
	}
	time.Sleep(time.Second) // now idle past the timeout
	resp := rawRequest{session: true, body: echo}.do(t, testCtx(t), base, session)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a call after the idle timeout: HTTP %d, want 404", resp.StatusCode)
	}
}

// Quick calls in stateless mode, of two protocol versions, and calls that
// the go-sdk must refuse: each gets what the go-sdk would answer.
func TestHTTPDirectStateless(t *testing.T) {
	t.Parallel()
	h, base, _ := serve(t, nil, plainConfig, nil, transport.HTTPOptions{Stateless: true})
	t.Cleanup(func() {
		if n := h.SessionCount(); n != 0 {
			t.Errorf("stateless server counts %d sessions", n)
		}
	})
	const echo = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	for _, tt := range []struct {
		name, body string
		header     map[string]string
		status     int
		want       string
	}{
		{"2025-11-25", echo, map[string]string{"Mcp-Protocol-Version": "2025-11-25"}, 200, `"text":"hi"`},
		{"2025-06-18", echo, map[string]string{"Mcp-Protocol-Version": "2025-06-18"}, 200, `"text":"hi"`},
		{"no version header", echo, nil, 200, `"text":"hi"`},
		{"unknown version", echo, map[string]string{"Mcp-Protocol-Version": "2020-01-01"}, 400, "Unsupported protocol version"},
		{"no Accept for streams", echo, map[string]string{"Accept": "application/json"}, 400, "Accept must contain"},
		{"bad arguments", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":7}}}`, nil, 200, `"isError":true`},
		{"unknown tool", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}`, nil, 200, `"error"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := rawRequest{body: tt.body, header: tt.header}.do(t, testCtx(t), base, "")
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.want) {
				t.Errorf("HTTP %d %s; want %d with %s", resp.StatusCode, b, tt.status, tt.want)
			}
		})
	}
}

// echoServer serves stepsConfig, stateful with a session opened, or
// stateless.
func echoServer(t *testing.T, stateless bool) (base, session string) {
	_, base, _ = serve(t, nil, stepsConfig, nil, transport.HTTPOptions{Stateless: stateless})
	if !stateless {
		session = rawSession(t, base)
	}
	return base, session
}

// TestDirectReplyLength: a direct answer is one JSON object with its
// Content-Length, short (net/http counts it) or long (given by mcpgen),
// never chunked, on a session and without one.
func TestDirectReplyLength(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		base, session := echoServer(t, stateless)
		for _, n := range []int{10, 1500, 2100, 70000} {
			text := strings.Repeat("x", n)
			body := `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"` + text + `"}}}`
			resp := rawRequest{session: !stateless, body: body}.do(t, testCtx(t), base, session)
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" ||
				resp.ContentLength != int64(len(got)) || len(resp.TransferEncoding) > 0 {
				t.Errorf("stateless %v, %d bytes: HTTP %d, Content-Type %q, Content-Length %d for %d bytes, Transfer-Encoding %v",
					stateless, n, resp.StatusCode, resp.Header.Get("Content-Type"), resp.ContentLength, len(got), resp.TransferEncoding)
			}
			want := `{"jsonrpc":"2.0","id":"a-1","result":{"content":[{"type":"text","text":"echo ` + text + `"}]}}`
			if string(got) != want {
				t.Errorf("stateless %v, %d bytes: body %.200s", stateless, n, got)
			}
		}
	}
}

// TestDirectRepliesUnderLoad: concurrent direct calls each get their own
// answer, whole: the buffers results are encoded into are reused only
// once their response is written.
func TestDirectRepliesUnderLoad(t *testing.T) {
	t.Parallel()
	for _, stateless := range []bool{false, true} {
		base, session := echoServer(t, stateless)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for i := range 40 {
					text := fmt.Sprintf("%d-%d-%s", g, i, strings.Repeat("y", 100*i))
					body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, i, text)
					resp := rawRequest{session: !stateless, body: body}.do(t, testCtx(t), base, session)
					got, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echo %s"}]}}`, i, text)
					if err != nil || string(got) != want {
						t.Errorf("stateless %v, call %d-%d: %v %.120s", stateless, g, i, err, got)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}
