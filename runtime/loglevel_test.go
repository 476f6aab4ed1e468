package runtime

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// enabledKind is a test backend that reports, as its result, which levels
// the client wants according to its notifier.
type enabledHandler struct{}

func (enabledHandler) Call(ctx context.Context, c *handlers.Call) (*handlers.Result, error) {
	return &handlers.Result{Structured: map[string]any{
		"debug": handlers.LogEnabled(ctx, c.Notify, slog.LevelDebug),
		"info":  handlers.LogEnabled(ctx, c.Notify, slog.LevelInfo),
		"error": handlers.LogEnabled(ctx, c.Notify, slog.LevelError),
	}}, nil
}

type enabledConfig struct{}

func (*enabledConfig) Build(handlers.BuildEnv) handlers.Handler { return enabledHandler{} }

func TestLogEnabledFollowsSetLevel(t *testing.T) {
	reg := handlers.NewRegistry(handlers.Kind{Name: "levels", NewConfig: func() handlers.Config { return &enabledConfig{} }})
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	os.WriteFile(path, []byte("version: 1\ntools:\n  - name: t\n    description: d\n    handler: {kind: levels}\n"), 0o644)
	srv, ds := Compile([]string{path}, load.Options{}, BuildOptions{Registry: reg})
	if srv == nil {
		t.Fatal(ds)
	}
	cs := session(t, srv, "2025-11-25", nil, nil)
	ctx := context.Background()
	levels := func() map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "t"})
		if err != nil {
			t.Fatal(err)
		}
		return res.StructuredContent.(map[string]any)
	}
	if got := levels(); got["debug"] != false || got["error"] != false {
		t.Errorf("before logging/setLevel no level is wanted: %v", got)
	}
	for _, tt := range []struct {
		level              mcp.LoggingLevel
		debug, info, error bool
	}{
		{"debug", true, true, true},
		{"warning", false, false, true},
		{"info", false, true, true},
	} {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: tt.level}); err != nil {
			t.Fatal(err)
		}
		got := levels()
		if got["debug"] != tt.debug || got["info"] != tt.info || got["error"] != tt.error {
			t.Errorf("after setLevel %s: %v", tt.level, got)
		}
	}
}
