package transport_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// The package's tests send HTTP through a transport of their own:
// httptest.Server.Close closes the idle connections of http.DefaultTransport,
// so a parallel test whose request had just taken one of them failed with
// "http: CloseIdleConnections called".
var (
	testTransport = http.DefaultTransport.(*http.Transport).Clone()
	testClient    = &http.Client{Transport: testTransport}
)

// probe is a backend kind for tests: each call signals `started`, then
// waits for its context or `release`, and counts what happened.
type probe struct {
	started  chan struct{}
	release  chan struct{}
	calls    atomic.Int64
	canceled atomic.Int64
	block    bool
	subject  atomic.Value // the last call's caller subject
}

// lastSubject is the subject of the caller of the last call ("" for none).
func (p *probe) lastSubject() string {
	s, _ := p.subject.Load().(string)
	return s
}

func newProbe(block bool) *probe {
	return &probe{started: make(chan struct{}, 1000), release: make(chan struct{}), block: block}
}

func (p *probe) kind() handlers.Kind {
	return handlers.Kind{Name: "probe", Doc: "test backend", NewConfig: func() handlers.Config { return &probeConfig{p: p} }}
}

type probeConfig struct{ p *probe }

func (c *probeConfig) Build(handlers.BuildEnv) handlers.Handler { return c.p }

// Call implements handlers.Handler.
func (p *probe) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	p.calls.Add(1)
	if c := auth.CallerFrom(ctx); c != nil {
		p.subject.Store(c.Subject)
	}
	p.started <- struct{}{}
	if p.block {
		select {
		case <-ctx.Done():
			p.canceled.Add(1)
			return nil, ctx.Err()
		case <-p.release:
		}
	}
	if handlers.LogEnabled(ctx, c.Notify, slog.LevelWarn) { // as the builtin kinds do
		c.Notify.Log(ctx, slog.LevelWarn, "backend says", map[string]any{"k": 1})
	}
	c.Notify.Progress(ctx, 3, 4, "backend progress")
	return handlers.TextResult("probe ran"), nil
}

var _ handlers.Handler = (*probe)(nil)

// build writes config and files into a temporary directory and builds it.
func build(t testing.TB, reg *handlers.Registry, config string, files map[string]string) (*runtime.Server, string) {
	t.Helper()
	if reg == nil {
		reg = handlers.NewRegistry()
	}
	dir := t.TempDir()
	for name, body := range files {
		writeFile(t, filepath.Join(dir, name), body)
	}
	path := filepath.Join(dir, "mcpgen.yaml")
	writeFile(t, path, config)
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: reg, WatchInterval: 20 * time.Millisecond})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, dir
}

// serve builds config and serves it over Streamable HTTP on loopback. It
// returns the handler, the base URL and the config's directory.
func serve(t testing.TB, reg *handlers.Registry, config string, files map[string]string, opts transport.HTTPOptions) (*transport.HTTPHandler, string, string) {
	t.Helper()
	srv, dir := build(t, reg, config, files)
	h, url := serveServer(t, srv, opts)
	return h, url, dir
}

// serveServer serves srv over Streamable HTTP on loopback and returns the
// handler and the base URL.
func serveServer(t testing.TB, srv *runtime.Server, opts transport.HTTPOptions) (*transport.HTTPHandler, string) {
	t.Helper()
	h := transport.NewHTTPHandler(srv, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.CloseClientConnections()
		ts.Close()
	})
	return h, ts.URL
}

func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connect opens a client session on url's /mcp endpoint.
func connect(t testing.TB, url string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + transport.MCPPath, HTTPClient: testClient},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func callTool(t testing.TB, ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitFor polls cond until it holds or 5 seconds pass.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder collects notifications from a client.
type recorder struct {
	mu       sync.Mutex
	logs     []*mcp.LoggingMessageParams
	progress []*mcp.ProgressNotificationParams
	updated  []string
}

func (r *recorder) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.logs = append(r.logs, req.Params)
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.progress = append(r.progress, req.Params)
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.updated = append(r.updated, req.Params.URI)
		},
	}
}

func (r *recorder) snapshot() (logs []*mcp.LoggingMessageParams, progress []*mcp.ProgressNotificationParams, updated []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(logs, r.logs...), append(progress, r.progress...), append(updated, r.updated...)
}
