package httpkind_test

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logRecord is one log a call sent to the client.
type logRecord struct {
	Level slog.Level
	Msg   string
	Data  map[string]any
}

// logs is a fake Notifier recording the logs of a call.
type logs struct {
	mu   sync.Mutex
	recs []logRecord
}

func (l *logs) Log(_ context.Context, level slog.Level, msg string, data map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, logRecord{level, msg, data})
}

func (l *logs) Progress(context.Context, float64, float64, string) {}

// lines are the recorded logs as "LEVEL message", durations replaced by D
// (waits and timings vary from run to run).
func (l *logs) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.recs {
		out = append(out, r.Level.String()+" "+durationRE.ReplaceAllString(r.Msg, "${1}D"))
	}
	return out
}

var durationRE = regexp.MustCompile(`(in |after )[0-9.]+(ns|µs|ms|s|m)+`)

// callLogged calls tool t of s and returns the logs it sent.
func callLogged(t *testing.T, s *runtime.Server, args string) (*logs, bool) {
	t.Helper()
	l := &logs{}
	res, err := handlertest.CallTool(context.Background(), s, "t", []byte(args), l)
	if err != nil {
		t.Fatal(err)
	}
	return l, !res.IsError
}

// noSecrets fails the test if a secret or a query string appears in any
// logged message or data.
func noSecrets(t *testing.T, l *logs, secrets ...string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.recs {
		text := r.Msg + " " + fmt.Sprint(r.Data)
		for _, s := range append(secrets, "?", "api_key=") {
			if strings.Contains(text, s) {
				t.Errorf("log %q (data %v) holds %q", r.Msg, r.Data, s)
			}
		}
	}
}

func TestRetriesAreLogged(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, auth, path string
		env              map[string]string
		secrets          []string
		wantPath         string
	}{
		{"bearer token", "auth: {bearer: tok-secret-4242}", "/tickets/${{ args.id }}", nil,
			[]string{"tok-secret-4242"}, "/api/tickets/T-1"},
		{"api key in the query", "auth: {api_key: {query: api_key, value: key-secret-9191}}", "/tickets/${{ args.id }}", nil,
			[]string{"key-secret-9191"}, "/api/tickets/T-1"},
		{"secret from the environment in the path", "auth: {bearer: '${TOKEN}'}", "/bot${BOT_TOKEN}/tickets/${{ args.id }}",
			map[string]string{"TOKEN": "tok-env-5151", "BOT_TOKEN": "bot-env-6161"},
			[]string{"tok-env-5151", "bot-env-6161"}, "/api/bot****/tickets/T-1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, sequence(status(503), status(503), jsonReply(200, map[string]any{"ok": true})))
			cfg := withBackend(srv.URL+"/api", tt.auth+"\nretries: {backoff: 1ms}\n",
				tool("- {name: id, required: true}", "path: "+tt.path+"\nquery: {q: find-me}"))
			l, ok := callLogged(t, buildEnv(t, cfg, tt.env), `{"id": "T-1"}`)
			if !ok {
				t.Fatal("the call failed")
			}
			p := "GET " + tt.wantPath
			want := []string{
				"DEBUG " + p + " → 503 in D",
				"WARN " + p + ": 503 Service Unavailable, retrying in D (attempt 2 of 3)",
				"DEBUG " + p + " → 503 in D",
				"WARN " + p + ": 503 Service Unavailable, retrying in D (attempt 3 of 3)",
				"DEBUG " + p + " → 200 in D",
			}
			if diff := cmp.Diff(want, l.lines()); diff != "" {
				t.Errorf("logs (-want +got):\n%s", diff)
			}
			noSecrets(t, l, append(tt.secrets, "find-me")...)
		})
	}
}

func TestRetryLogData(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, sequence(status(429), jsonReply(200, map[string]any{})))
	s := build(t, withBackend(srv.URL, "retries: {max: 4, backoff: 1ms}\n", tool("", "path: /x")))
	l, _ := callLogged(t, s, `{}`)
	var warn map[string]any
	for _, r := range l.recs {
		if r.Level == slog.LevelWarn {
			warn = r.Data
		}
	}
	if w, ok := warn["wait_ms"].(float64); !ok || w <= 0 || w > 1 {
		t.Errorf("wait_ms = %v, want at most 1 (backoff 1ms)", warn["wait_ms"])
	}
	delete(warn, "wait_ms")
	want := map[string]any{"method": "GET", "path": "/x", "status": 429, "attempt": 2, "max_attempts": 5}
	if diff := cmp.Diff(want, warn); diff != "" {
		t.Errorf("warning data (-want +got):\n%s", diff)
	}
}

func TestConnectionErrorsAreLogged(t *testing.T) {
	t.Parallel()
	s := build(t, withBackend("http://127.0.0.1:1", "auth:\n  api_key: {query: key, value: key-98765}\nretries: {max: 1, backoff: 1ms}\n",
		tool("", "path: /x")))
	l, ok := callLogged(t, s, `{}`)
	if ok {
		t.Fatal("a call to a closed port succeeded")
	}
	want := []string{
		"DEBUG GET /x → connection refused after D",
		"WARN GET /x: connection refused, retrying in D (attempt 2 of 2)",
		"DEBUG GET /x → connection refused after D",
	}
	if diff := cmp.Diff(want, l.lines()); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	noSecrets(t, l, "key-98765")
}

func TestSuccessLogsOneRequest(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, jsonReply(200, map[string]any{"ok": true}))
	s := build(t, withBackend(srv.URL, "auth: {bearer: tok-123456}\n", tool("", "path: /tickets")))
	l, ok := callLogged(t, s, `{}`)
	if !ok {
		t.Fatal("the call failed")
	}
	if diff := cmp.Diff([]string{"DEBUG GET /tickets → 200 in D"}, l.lines()); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	data := l.recs[0].Data
	if d, ok := data["duration_ms"].(float64); !ok || d < 0 {
		t.Errorf("duration_ms = %v", data["duration_ms"])
	}
	delete(data, "duration_ms")
	if diff := cmp.Diff(map[string]any{"method": "GET", "path": "/tickets", "status": 200}, data); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	noSecrets(t, l, "tok-123456")
}

func TestPagesAreLogged(t *testing.T) {
	t.Parallel()
	srv := pages(t)
	s := build(t, withBackend(srv.URL+"/api", "", tool("", "path: /items\n"+
		"pagination:\n  mode: follow\n  next: ${{ response.body.next_cursor }}\n  cursor_param: cursor\n  items: ${{ response.body.data }}")))
	l, ok := callLogged(t, s, `{}`)
	if !ok {
		t.Fatal("the call failed")
	}
	want := []string{
		"DEBUG GET /api/items → 200 in D",
		"INFO GET /api/items: page 1, 2 items (2 so far)",
		"DEBUG GET /api/items → 200 in D",
		"INFO GET /api/items: page 2, 2 items (4 so far)",
		"DEBUG GET /api/items → 200 in D",
		"INFO GET /api/items: page 3, 1 item (5 so far)",
	}
	if diff := cmp.Diff(want, l.lines()); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	noSecrets(t, l, "cursor=")
}

// TestRetryLogsReachAnMCPClient calls through a go-sdk client that asked for
// warnings, with logging/setLevel (2025-11-25) or in the request's _meta
// (2026-07-28): it receives the two retries as notifications/message, and
// none of the debug lines.
func TestRetryLogsReachAnMCPClient(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			api := newRecorder(t, sequence(status(503), status(503), jsonReply(200, map[string]any{"ok": true})))
			s := build(t, withBackend(api.URL, "auth: {bearer: tok-123456}\nretries: {backoff: 1ms}\n", tool("", "path: /x")))
			got := make(chan *mcp.LoggingMessageParams, 10)
			cs := clientSession(t, s, version, got)
			ctx := context.Background()
			params := &mcp.CallToolParams{Name: "t", Arguments: map[string]any{}}
			if version == "2026-07-28" {
				params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "warning"}
			} else if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, params)
			if err != nil || res.IsError {
				t.Fatalf("tools/call: %v %+v", err, res)
			}
			var logs []string
			for len(logs) < 2 {
				select {
				case l := <-got:
					m, _ := l.Data.(map[string]any)
					logs = append(logs, fmt.Sprintf("%s %s: %v", l.Level, l.Logger, m["attempt"]))
				case <-time.After(10 * time.Second):
					t.Fatalf("only %d log notifications: %v", len(logs), logs)
				}
			}
			if diff := cmp.Diff([]string{"warning t: 2", "warning t: 3"}, logs); diff != "" {
				t.Errorf("notifications (-want +got):\n%s", diff)
			}
		})
	}
}

// clientSession connects a go-sdk client speaking version to s, sending
// the log notifications it receives to logs.
func clientSession(t *testing.T, s *runtime.Server, version string, logs chan<- *mcp.LoggingMessageParams) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) { logs <- req.Params }})
	return handlertest.Connect(t, s, client, &mcp.ClientSessionOptions{ProtocolVersion: version})
}

// TestSecretWebhookPathNotLogged: a backend whose base URL is a secret (a
// webhook, whose secret is its path) logs its requests without the path,
// which the debug line names without the host.
func TestSecretWebhookPathNotLogged(t *testing.T) {
	srv := newRecorder(t, jsonReply(200, map[string]any{"ok": true}))
	secretPath := "/services/T000/B000/XXXXXXXXXXXXXXXX"
	t.Setenv("SLACK_WEBHOOK", srv.URL+secretPath)
	s := build(t, withBackend("${SLACK_WEBHOOK}", "", tool("", "method: POST\nbody:\n  json: {text: hi}")))
	l, ok := callLogged(t, s, `{}`)
	if !ok {
		t.Fatal("the call failed")
	}
	if diff := cmp.Diff([]string{"DEBUG POST **** → 200 in D"}, l.lines()); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
	noSecrets(t, l, secretPath, "XXXXXXXXXXXXXXXX")
}
