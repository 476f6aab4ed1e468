package httpkind

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/templates"
	"gopkg.in/yaml.v3"
)

// testEnv is a minimal BuildEnv: arguments are untyped, problems fail the
// test.
type testEnv struct{ t testing.TB }

func (e testEnv) Logger() *slog.Logger   { return slog.New(slog.DiscardHandler) }
func (e testEnv) Diag(field, msg string) { e.t.Fatalf("%s: %s", field, msg) }
func (e testEnv) DiagAt(field string, off int, msg string) {
	e.t.Fatalf("%s (byte %d): %s", field, off, msg)
}
func (e testEnv) Failed() bool           { return false } // Diag stops the test
func (e testEnv) Warn(field, msg string) { e.t.Logf("warning: %s: %s", field, msg) }
func (e testEnv) Compile(field string, v *spec.Value, vars types.Map) *eval.Value {
	if v.IsZero() {
		return eval.Const(nil)
	}
	env := types.Map{"args": types.Map{types.Extra: types.Any}}
	for k, t := range vars {
		env[k] = t
	}
	val, errs := eval.Compile(v.Node, env, eval.Options{})
	if len(errs) > 0 {
		e.t.Fatalf("%s: %v", field, errs[0])
	}
	return val
}
func (e testEnv) Template(field, text string, vars ...string) *templates.Template {
	e.t.Fatal("no templates here")
	return nil
}
func (e testEnv) Backend(string) (any, error) { return nil, handlers.ErrNoBackend }
func (e testEnv) Path(p string) string        { return p }
func (e testEnv) Redact(s string) string      { return s }

func scalar(s string) spec.Value {
	return spec.Value{Node: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}}
}

// BenchmarkHandlerVsPlainClient is BenchmarkToolVsPlainClient without
// runtime's share (argument decoding and validation): the handler alone.
func BenchmarkHandlerVsPlainClient(b *testing.B) {
	const body = `{"id":"T-42","title":"Printer on fire","status":"open","priority":2,"labels":["hardware","urgent"],` +
		`"assignee":{"id":7,"name":"Ann"},"created":"2026-11-21T10:00:00Z","comments":3}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	base, token := srv.URL, "tok-123456"
	cfg := &Config{Connection: Connection{BaseURL: &base, Auth: &Auth{Bearer: &token}}, Path: scalar("/tickets/${{ args.id }}")}
	h := cfg.Build(testEnv{b}).(*handler)
	defer h.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	ctx := context.Background()
	plain := func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/tickets/T-42", nil)
		req.Header.Set("Authorization", "Bearer tok-123456")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	call := &handlers.Call{Args: map[string]any{"id": "T-42"}, Notify: handlers.Nop{}}
	tool := func() {
		if _, err := h.Call(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
	plain()
	tool()
	var plainNs, toolNs time.Duration
	for b.Loop() {
		t0 := time.Now()
		plain()
		t1 := time.Now()
		tool()
		toolNs += time.Since(t1)
		plainNs += t1.Sub(t0)
	}
	b.ReportMetric(float64(plainNs.Nanoseconds())/float64(b.N), "plain-ns/op")
	b.ReportMetric(float64(toolNs.Nanoseconds())/float64(b.N), "handler-ns/op")
	b.ReportMetric(float64(toolNs)/float64(plainNs), "ratio")
}
