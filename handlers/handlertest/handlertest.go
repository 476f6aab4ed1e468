// Package handlertest is the behaviour suite every backend kind passes:
// cancellation, timeout, output cap and error mapping, proven through a real
// config built and called the way mcpgen serves it.
package handlertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Build writes config into a temporary directory (beside any extra files,
// name → contents), builds it with reg and fails the test on any error
// diagnostic. The server is closed when the test ends.
func Build(t testing.TB, reg *handlers.Registry, config string, extra map[string]string) *runtime.Server {
	t.Helper()
	dir := t.TempDir()
	for name, body := range extra {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: reg})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// Diagnose builds config and returns its diagnostics (for tests of errors).
func Diagnose(t testing.TB, reg *handlers.Registry, config string) load.Diagnostics {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: reg})
	if srv != nil {
		srv.Close()
	}
	return ds
}

// WantDiagnostics runs one subtest per entry of cases, a name and a config
// with what one of its diagnostics must contain.
func WantDiagnostics(t *testing.T, reg *handlers.Registry, cases map[string][2]string) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if ds := Diagnose(t, reg, c[0]); !strings.Contains(ds.Error(), c[1]) {
				t.Errorf("got\n%v\nwant a diagnostic containing %q", ds, c[1])
			}
		})
	}
}

// DiagnoseFile builds the config file at path, beside the files it refers
// to, and returns its diagnostics.
func DiagnoseFile(t testing.TB, reg *handlers.Registry, path string) load.Diagnostics {
	t.Helper()
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: reg})
	if srv != nil {
		srv.Close()
	}
	return ds
}

// Call calls tool with JSON arguments and returns the result as a client
// reads it (see CallTool).
func Call(t testing.TB, ctx context.Context, srv *runtime.Server, tool, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := CallTool(ctx, srv, tool, []byte(args), nil)
	if err != nil {
		t.Fatalf("calling %s: %v", tool, err)
	}
	return res
}

// CallTool calls tool on srv as `mcpgen call` does, with n hearing its
// notifications, and returns the result as a client reads it: encoded as
// on the wire and decoded by the unmodified go-sdk, not mcpgen's copy.
// Only the structured content is the value the tool made, so that tests
// see its Go types (int64, not the float64 a JSON decoder makes).
func CallTool(ctx context.Context, srv *runtime.Server, tool string, args []byte, n handlers.Notifier) (*mcp.CallToolResult, error) {
	res, err := srv.CallTool(ctx, tool, args, n)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("encoding the result of %s: %w", tool, err)
	}
	out := new(mcp.CallToolResult)
	if err := json.Unmarshal(data, out); err != nil {
		return nil, fmt.Errorf("decoding the result of %s: %w", tool, err)
	}
	out.StructuredContent = res.StructuredContent
	return out, nil
}

// Client connects the unmodified go-sdk's client to srv (see Connect).
func Client(t testing.TB, srv *runtime.Server) *mcp.ClientSession {
	t.Helper()
	return Connect(t, srv, mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil), nil)
}

// Connect connects client, of the unmodified go-sdk, to srv over a pipe
// served as `mcpgen serve` serves stdio; both ends are closed when the test
// ends.
func Connect(t testing.TB, srv *runtime.Server, client *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serverEnd, clientEnd := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- transport.ServeStdio(ctx, srv, serverEnd, serverEnd, transport.StdioOptions{}) }()
	t.Cleanup(func() {
		cancel()
		_ = serverEnd.Close()
		<-served
	})
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientEnd, Writer: clientEnd}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Text joins the text blocks of a result.
func Text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Suite is one kind's instance of the shared behaviour. Each config is a
// complete mcpgen config with a tool named "t" taking no arguments.
type Suite struct {
	Registry *handlers.Registry
	// Files are written beside every config (scripts, fixtures).
	Files map[string]string
	// Hang is a tool whose backend never answers and has no timeout of its own.
	Hang string
	// Timeout is a tool whose backend never answers, with a timeout of at
	// most 500ms configured.
	Timeout string
	// Large is a tool whose backend produces more than its configured output
	// cap; the result must say it was truncated.
	Large string
	// Fail is a tool whose backend fails; its error result must contain
	// FailText.
	Fail     string
	FailText string
}

// Run runs the shared behaviour suite.
func Run(t *testing.T, s Suite) {
	t.Run("cancellation", func(t *testing.T) {
		srv := Build(t, s.Registry, s.Hang, s.Files)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		res := Call(t, ctx, srv, "t", `{}`)
		if !res.IsError {
			t.Errorf("a canceled call succeeded: %s", Text(res))
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a canceled call returned after %v", d)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		srv := Build(t, s.Registry, s.Timeout, s.Files)
		res := Call(t, context.Background(), srv, "t", `{}`)
		if !res.IsError || !strings.Contains(strings.ToLower(Text(res)), "time") {
			t.Errorf("want an error result about the timeout, got isError=%v %q", res.IsError, Text(res))
		}
	})
	t.Run("output cap", func(t *testing.T) {
		srv := Build(t, s.Registry, s.Large, s.Files)
		res := Call(t, context.Background(), srv, "t", `{}`)
		if !strings.Contains(strings.ToLower(Text(res)), "truncated") {
			t.Errorf("want a truncation note, got %q", Text(res))
		}
	})
	t.Run("error mapping", func(t *testing.T) {
		srv := Build(t, s.Registry, s.Fail, s.Files)
		res := Call(t, context.Background(), srv, "t", `{}`)
		if !res.IsError || !strings.Contains(Text(res), s.FailText) {
			t.Errorf("want an error result containing %q, got isError=%v %q", s.FailText, res.IsError, Text(res))
		}
	})
}
