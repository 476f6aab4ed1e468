package sqlkind_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
)

// logEntry is one log a handler sent to its call's client.
type logEntry struct {
	Level slog.Level
	Msg   string
	Data  map[string]any
}

// recorder is a Notifier that keeps the logs of one call.
type recorder struct {
	handlers.Nop
	mu   sync.Mutex
	logs []logEntry
}

// Enabled wants every level, so that debug logs are built and recorded.
func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }

func (r *recorder) Log(_ context.Context, level slog.Level, msg string, data map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, logEntry{level, msg, data})
}

// split returns the debug logs and the others.
func (r *recorder) split() (debug, other []logEntry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.logs {
		if l.Level == slog.LevelDebug {
			debug = append(debug, l)
		} else {
			other = append(other, l)
		}
	}
	return debug, other
}

func callLogged(t *testing.T, srv *runtime.Server, tool, args string) *recorder {
	t.Helper()
	rec := &recorder{}
	res, err := handlertest.CallTool(context.Background(), srv, tool, []byte(args), rec)
	switch {
	case err != nil:
		t.Errorf("calling %s: %v", tool, err)
	case res.IsError:
		t.Errorf("calling %s: %s", tool, handlertest.Text(res))
	}
	return rec
}

func TestStatementLog(t *testing.T) {
	t.Parallel()
	srv := buildShop(t, `tools:
  - name: two
    description: an update and a query
    args: [{name: city, required: true}]
    handler:
      backend: shop
      statements:
        - exec: UPDATE customers SET city = :city WHERE id < 3
        - query: SELECT id FROM customers WHERE city = :city
      params: {city: "${{ args.city }}"}
`)
	rec := callLogged(t, srv, "two", `{"city": "Secret-City-42"}`)
	debug, other := rec.split()
	if len(other) > 0 {
		t.Errorf("unexpected logs above debug: %v", other)
	}
	if len(debug) != 2 {
		t.Fatalf("got %d debug logs, want one per statement: %v", len(debug), debug)
	}
	for i, want := range []struct {
		msg  string
		data map[string]any
	}{
		{"statement 1 affected 2 rows in ", map[string]any{"statement": 1, "rows_affected": int64(2)}},
		{"statement 2 returned 2 rows in ", map[string]any{"statement": 2, "rows": 2}},
	} {
		got := debug[i]
		if !strings.HasPrefix(got.Msg, want.msg) || strings.Contains(fmt.Sprint(got), "Secret-City") {
			t.Errorf("log %d = %q, want %q… without the parameter values", i, got.Msg, want.msg)
		}
		ms, ok := got.Data["duration_ms"].(float64)
		if !ok || ms < 0 {
			t.Errorf("log %d: duration_ms = %v, want a duration", i, got.Data["duration_ms"])
		}
		delete(got.Data, "duration_ms")
		if diff := cmp.Diff(want.data, got.Data); diff != "" {
			t.Errorf("log %d data (-want +got):\n%s", i, diff)
		}
	}
}

// noticeConfig calls a function that raises a notice, waits, then warns.
const noticeConfig = `version: 1
backends:
  db: {kind: sql, driver: postgres, dsn: "{DSN}"}
tools:
  - name: noisy
    description: raises a notice and a warning
    args: [{name: tag, required: true}, {name: pause, type: number, required: true}]
    handler:
      backend: db
      query: SELECT {F}(:tag, :pause) AS r
      params: {tag: "${{ args.tag }}", pause: "${{ args.pause }}"}
`

// noisyFunction creates a PostgreSQL function, dropped when the test ends,
// that raises a notice, waits, then warns; it returns its name.
func noisyFunction(t *testing.T, dsn string) string {
	t.Helper()
	db := open(t, "pgx", dsn)
	fn := fmt.Sprintf("mcpgen_noisy_%d_%d", time.Now().UnixNano()%1e9, rand.IntN(1e6))
	if _, err := db.Exec(`CREATE FUNCTION ` + fn + `(tag text, pause float8) RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE 'n1 %', tag;
  PERFORM pg_sleep(pause);
  RAISE WARNING 'w1 %', tag USING DETAIL = 'the detail', HINT = 'the hint', ERRCODE = '01000';
  RETURN 1;
END $$`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP FUNCTION " + fn); err != nil {
			t.Errorf("dropping %s: %v", fn, err)
		}
	})
	return fn
}

func TestPostgresNotices(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	fn := noisyFunction(t, dsn)
	srv := handlertest.Build(t, registry(), strings.NewReplacer("{DSN}", dsn, "{F}", fn).Replace(noticeConfig), nil)
	want := func(tag string) []logEntry {
		return []logEntry{
			{slog.LevelInfo, "n1 " + tag, map[string]any{"severity": "NOTICE", "code": "00000", "message": "n1 " + tag}},
			{slog.LevelWarn, "w1 " + tag, map[string]any{"severity": "WARNING", "code": "01000", "message": "w1 " + tag,
				"detail": "the detail", "hint": "the hint"}},
		}
	}
	// Two calls at once, each pausing between its notices: each gets its
	// own notices and none of the other's.
	tags := []string{"a", "b"}
	recs := make([]*recorder, len(tags))
	var wg sync.WaitGroup
	for i, tag := range tags {
		wg.Go(func() { recs[i] = callLogged(t, srv, "noisy", `{"tag": "`+tag+`", "pause": 0.3}`) })
	}
	wg.Wait()
	for i, tag := range tags {
		debug, other := recs[i].split()
		if diff := cmp.Diff(want(tag), other); diff != "" {
			t.Errorf("call %s (-want +got):\n%s", tag, diff)
		}
		if len(debug) != 1 || !strings.HasPrefix(debug[0].Msg, "statement 1 returned 1 rows") {
			t.Errorf("call %s: debug logs %v, want the statement's", tag, debug)
		}
	}
}

// TestPostgresNoticesAfterCancel checks that a canceled call's notices do
// not reach the next call that uses its connection.
func TestPostgresNoticesAfterCancel(t *testing.T) {
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	fn := noisyFunction(t, dsn)
	// one connection, so the second call gets the first's
	cfg := strings.Replace(noticeConfig, `dsn: "{DSN}"}`, `dsn: "{DSN}", max_open: 1}`, 1)
	srv := handlertest.Build(t, registry(), strings.NewReplacer("{DSN}", dsn, "{F}", fn).Replace(cfg), nil)

	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		first := &recorder{}
		res, err := handlertest.CallTool(ctx, srv, "noisy", []byte(`{"tag": "first", "pause": 2}`), first)
		cancel()
		if err != nil || !res.IsError {
			t.Fatalf("round %d: the canceled call succeeded: %v", i, err)
		}
		second := callLogged(t, srv, "noisy", `{"tag": "second", "pause": 0}`)
		_, other := second.split()
		for _, l := range other {
			if strings.Contains(l.Msg, "first") {
				t.Errorf("round %d: the next call got the canceled call's notice %q", i, l.Msg)
			}
		}
		if len(other) != 2 {
			t.Errorf("round %d: the next call got %d notices, want its own 2: %v", i, len(other), other)
		}
	}
}
