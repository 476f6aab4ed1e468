package reload

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestReloadWarnsOfStartupSettings: a reload that changes settings read
// only when serving starts (server.http with its auth and limits, the
// server's name) serves the rest and says on the operator log which
// settings wait for a restart; a reload that changes only tools says
// nothing of the kind.
func TestReloadWarnsOfStartupSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	logs := &lockedBuffer{}
	write(t, path, config("one", "a"))
	m := observe.NewMetrics()
	r, ds := Start(Options{Paths: []string{path}, Metrics: m, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Build: runtime.BuildOptions{Registry: poolRegistry(&pools{gate: make(chan struct{})}), Observer: &observe.Observer{Metrics: m},
			Logger: slog.New(slog.NewTextHandler(logs, nil))}}, false)
	if r == nil {
		t.Fatal(ds)
	}
	defer r.Close()

	write(t, path, config("one", "a", "b"))
	if !r.Reload(context.Background()) {
		t.Fatal(r.Diagnostics())
	}
	const warn = "keep their first values until a restart"
	if strings.Contains(logs.String(), warn) {
		t.Errorf("a reload that changed only tools warned:\n%s", logs)
	}

	write(t, path, "server:\n  name: renamed\n  http: {max_sessions: 5}\n"+config("one", "a", "b"))
	if !r.Reload(context.Background()) {
		t.Fatal(r.Diagnostics())
	}
	got := logs.String()
	for _, want := range []string{warn, "server name", "server.http (address, limits, auth)"} {
		if !strings.Contains(got, want) {
			t.Errorf("operator log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "server.stdio") || strings.Contains(got, "extensions") {
		t.Errorf("settings that did not change are named:\n%s", got)
	}
}
