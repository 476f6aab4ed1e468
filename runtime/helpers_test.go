package runtime

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// envMap is a load.LookupEnv over a fixed map.
func envMap(m map[string]string) load.LookupEnv {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// writeFiles writes name → contents under a new temporary directory and
// returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// compileText writes config (and extra files) to a temporary directory and
// compiles it with the test kinds.
func compileText(t testing.TB, config string, extra map[string]string) (*Server, load.Diagnostics) {
	t.Helper()
	return compileCounting(t, config, extra, new(atomic.Int64))
}

// compileCounting is compileText counting the calls of the test kinds.
func compileCounting(t testing.TB, config string, extra map[string]string, calls *atomic.Int64) (*Server, load.Diagnostics) {
	t.Helper()
	files := map[string]string{"mcpgen.yaml": config}
	for k, v := range extra {
		files[k] = v
	}
	dir := writeFiles(t, files)
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(calls)})
	if srv != nil {
		t.Cleanup(func() { srv.Close() })
	}
	return srv, ds
}

// mustCompile is compileText failing the test on any error.
func mustCompile(t testing.TB, config string, extra map[string]string) *Server {
	t.Helper()
	srv, ds := compileText(t, config, extra)
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	return srv
}

// diagText renders diagnostics one per line, with the directory of the
// config file removed.
func diagText(ds load.Diagnostics, dir string) string {
	var b strings.Builder
	for _, d := range ds {
		if dir != "" {
			d.File = strings.TrimPrefix(d.File, dir+string(filepath.Separator))
		}
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// wantDiag fails unless some diagnostic's text contains every one of parts.
func wantDiag(t testing.TB, ds load.Diagnostics, parts ...string) {
	t.Helper()
	for _, d := range ds {
		s := d.String()
		all := true
		for _, p := range parts {
			all = all && strings.Contains(s, p)
		}
		if all {
			return
		}
	}
	t.Errorf("no diagnostic contains %q; got:\n%v", parts, ds)
}

// echoConfig is the "echo" test kind: its result is an expression over the
// arguments, or an error.
type echoConfig struct {
	Result spec.Value `yaml:"result"`
	Fail   string     `yaml:"fail"`
	Log    string     `yaml:"log"` // sent at info level before answering
	// Refuse is returned as an error result (IsError), not as an error.
	Refuse string `yaml:"refuse"`
	// Headers and DSN are not used: values written there are credentials
	// by where they are written (see load.CredentialField).
	Headers map[string]string `yaml:"headers"`
	DSN     string            `yaml:"dsn"`
	calls   *atomic.Int64
	value   *eval.Value
}

func (c *echoConfig) Build(env handlers.BuildEnv) handlers.Handler {
	c.value = env.Compile("result", &c.Result, nil)
	if c.value == nil {
		return nil
	}
	return c
}

func (c *echoConfig) Call(ctx context.Context, call *handlers.Call) (*handlers.Result, error) {
	c.calls.Add(1)
	if c.Log != "" {
		call.Notify.Log(ctx, slog.LevelInfo, c.Log, map[string]any{"tool": "echo"})
	}
	if c.Fail != "" {
		return nil, errors.New(c.Fail)
	}
	if c.Refuse != "" {
		res := handlers.TextResult(c.Refuse)
		res.IsError = true
		return res, nil
	}
	x, err := c.value.Eval(call.Vars())
	if err != nil {
		return nil, err
	}
	if s, ok := x.(string); ok {
		return handlers.TextResult(s), nil
	}
	return &handlers.Result{Structured: x}, nil
}

// testRegistry holds the echo kind, whose handlers count their calls in
// calls.
func testRegistry(calls *atomic.Int64) *handlers.Registry {
	if calls == nil {
		calls = new(atomic.Int64)
	}
	return handlers.NewRegistry(handlers.Kind{Name: "echo", Doc: "Echoes a value.",
		NewConfig: func() handlers.Config { return &echoConfig{calls: calls} }})
}

// textOf joins the text blocks of a result.
func textOf(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}
