package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// sessionOps are the messages a session fuzz input is made of, by index;
// %d is the message's id. Each is something a client may send at any
// point of a session: the handshake again or out of order, calls of both
// eras, cancellations, answers nobody asked for, a broken frame.
var sessionOps = []string{
	`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":%d,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"y"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"prompts/get","params":{"name":"hello"}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"robust://about"}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"logging/setLevel","params":{"level":"debug"}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"hello"},"argument":{"name":"who","value":"a"}}}`,
	`{"jsonrpc":"2.0","id":%d,"method":`,
	`{"jsonrpc":"2.0","id":%d,"result":{}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
	`{"jsonrpc":"2.0","id":%d,"method":"initialize"}`,
}

// sessionMessages turns a fuzz input into a transport (0 stdio, 1
// stateful HTTP, 2 stateless HTTP) and a sequence of messages.
func sessionMessages(data []byte) (mode int, msgs []string) {
	if len(data) == 0 {
		return 0, nil
	}
	for i, b := range data[1:min(len(data), 65)] {
		op := sessionOps[int(b)%len(sessionOps)]
		if strings.Contains(op, "%d") {
			op = fmt.Sprintf(op, i+1)
		}
		msgs = append(msgs, op)
	}
	return int(data[0]) % 3, msgs
}

// FuzzSessions drives whole sessions, on stdio and on both HTTP modes of
// a Live server (as `mcpgen serve` runs one): repeated and out-of-order
// initialize, requests before and after it, cancellations, pings. No
// message may panic, even a recovered panic (mcpgen_panics_total stays 0),
// and the server must answer a new client afterwards. Seeds under
// testdata/fuzz/FuzzSessions; the first ones are a second initialize on
// each transport, which used to end the process.
func FuzzSessions(f *testing.F) {
	for mode := range byte(3) {
		f.Add([]byte{mode, 0, 1, 0, 2})      // initialize twice
		f.Add([]byte{mode, 0, 1, 4, 5, 2})   // a call, its cancellation
		f.Add([]byte{mode, 4, 0, 1, 6, 8})   // a call before initialize; the 2026 era
		f.Add([]byte{mode, 0, 7, 15, 16, 3}) // initialize in other forms
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mode, msgs := sessionMessages(data)
		watch := hangWatch(msgs)
		t.Cleanup(func() { watch.Stop() }) // runs last: covers the cleanups too
		srv, m := fuzzLive(t)
		switch mode {
		case 0:
			fuzzStdioSession(t, srv, msgs)
		default:
			h := transport.NewHTTPHandler(srv, transport.HTTPOptions{Stateless: mode == 2, MaxSessions: -1, MaxSessionsPerClient: -1})
			defer h.Close()
			fuzzHTTPSession(t, h, msgs)
			if mode == 1 {
				stillServes(t, h)
			} else {
				stillDiscovers(t, h)
			}
		}
		if n := panics(t, m, ""); n > 0 {
			t.Fatalf("%v panics (see the log) for %q", n, msgs)
		}
	})
}

// hangWatch crashes the fuzzing process, with every goroutine's stack,
// if a session is not done within 20 s: the server must never hang, and
// a crash is what makes the fuzzer keep the input.
func hangWatch(msgs []string) *time.Timer {
	return time.AfterFunc(20*time.Second, func() {
		buf := make([]byte, 4<<20)
		buf = buf[:goruntime.Stack(buf, true)]
		panic(fmt.Sprintf("a session hung: %q\n%s", msgs, buf))
	})
}

// fuzzLive builds the fuzz config on a Live, with metrics.
func fuzzLive(t *testing.T) (*runtime.Server, *observe.Metrics) {
	m := observe.NewMetrics()
	srv, ds := runtime.Compile([]string{fuzzConfigPath()}, load.Options{}, runtime.BuildOptions{Observer: &observe.Observer{Metrics: m}})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	live := runtime.NewLive(srv)
	t.Cleanup(func() { live.Close() })
	return srv, m
}

// fuzzStdioSession sends msgs on stdio, then a ping, which must be
// answered.
func fuzzStdioSession(t *testing.T, srv *runtime.Server, msgs []string) {
	in := strings.Join(msgs, "\n") + "\n" + pingAfterFuzz + "\n"
	var out bytes.Buffer
	opts := transport.StdioOptions{ShutdownTimeout: time.Second}
	if err := transport.ServeStdio(context.Background(), srv, strings.NewReader(in), &out, opts); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	pinged := false
	for sc := bufio.NewScanner(&out); sc.Scan(); {
		checkJSONRPC(t, sc.Bytes())
		pinged = pinged || sc.Text() == `{"jsonrpc":"2.0","id":"ping-after-fuzz","result":{}}`
	}
	if !pinged {
		t.Fatalf("no answer to the ping sent after %q; output:\n%s", msgs, out.String())
	}
}

// fuzzHTTPSession posts msgs one after the other, with the session the
// first successful initialize opened.
func fuzzHTTPSession(t *testing.T, h http.Handler, msgs []string) {
	session := ""
	for _, msg := range msgs {
		req := httptest.NewRequest("POST", "http://127.0.0.1"+transport.MCPPath, strings.NewReader(msg))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		if strings.Contains(msg, "2026-07-28") {
			modernHeaders(req, msg)
		}
		rec := post(h, req)
		checkHTTPReply(t, rec)
		if id := rec.Header().Get("Mcp-Session-Id"); id != "" && session == "" {
			session = id
		}
	}
}

// post serves req, ending a stream it opens after 200 ms.
func post(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req.WithContext(ctx))
	return rec
}

// stillDiscovers checks that a stateless server answers server/discover.
func stillDiscovers(t *testing.T, h http.Handler) {
	t.Helper()
	req := httptest.NewRequest("POST", "http://127.0.0.1"+transport.MCPPath, strings.NewReader(fmt.Sprintf(sessionOps[6], 1)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	modernHeaders(req, fmt.Sprintf(sessionOps[6], 1))
	if rec := post(h, req); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"supportedVersions"`) {
		t.Fatalf("server/discover after the input: status %d, %s", rec.Code, rec.Body)
	}
}

// modernHeaders sets the headers a 2026-07-28 request carries beside its
// body: the version, the method and the name of what it calls.
func modernHeaders(req *http.Request, msg string) {
	var m struct {
		Method string
		Params struct{ Name string }
	}
	_ = json.Unmarshal([]byte(msg), &m)
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", m.Method)
	if m.Params.Name != "" {
		req.Header.Set("Mcp-Name", m.Params.Name)
	}
}
