// Command httpbench measures tools/call requests per second over Streamable
// HTTP with concurrent clients, for mcpgen and for a minimal go-sdk server
// with the same backend-less tool, stateful and stateless. Rounds of each
// alternate, so that a busy machine slows them alike; it prints the median
// of each and mcpgen's ratio to the go-sdk.
//
//	go run ./runtime/internal/httpbench -clients 16 -rounds 5 -round 2s
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

const config = `version: 1
tools:
  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "{{ .args.text }}"}]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("httpbench", flag.ContinueOnError)
	clients := fs.Int("clients", 16, "concurrent clients, one session each")
	rounds := fs.Int("rounds", 5, "rounds per server and mode")
	round := fs.Duration("round", 2*time.Second, "length of a round")
	verbose := fs.Bool("v", false, "print every round's req/s on stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	srv, err := buildMCPGen()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer srv.Close()
	for _, stateless := range []bool{false, true} {
		targets := map[string]http.Handler{
			"mcpgen": transport.NewHTTPHandler(srv, transport.HTTPOptions{Stateless: stateless}),
			"go-sdk": minimalSDK(stateless),
		}
		rates, cpu := map[string][]float64{}, map[string][]float64{}
		for range *rounds {
			for _, name := range []string{"mcpgen", "go-sdk"} {
				r, c, err := measure(targets[name], *clients, *round)
				if err != nil {
					fmt.Fprintf(stderr, "%s: %v\n", name, err)
					return 1
				}
				rates[name] = append(rates[name], r)
				cpu[name] = append(cpu[name], c)
			}
		}
		mode := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		if *verbose {
			fmt.Fprintln(stderr, mode, rates)
		}
		m, s := median(rates["mcpgen"]), median(rates["go-sdk"])
		mc, sc := median(cpu["mcpgen"]), median(cpu["go-sdk"])
		fmt.Fprintf(stdout, "%-9s mcpgen %6.0f req/s %4.0f µs CPU/call   go-sdk %6.0f req/s %4.0f µs CPU/call   "+
			"ratio %.2f (req/s), %.2f (CPU)   [medians of %d rounds, %d clients; CPU counts client and server]\n",
			mode, m, mc, s, sc, m/s, mc/sc, *rounds, *clients)
	}
	return 0
}

func buildMCPGen() (*runtime.Server, error) {
	dir, err := os.MkdirTemp("", "httpbench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		return nil, err
	}
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: handlers.NewRegistry()})
	if ds.Errors() > 0 {
		return nil, fmt.Errorf("config: %v", ds)
	}
	return srv, nil
}

// minimalSDK is the go-sdk's own server with the same tool.
func minimalSDK(stateless bool) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "minimal", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes its argument.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}}}, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: stateless})
}

// measure runs clients sessions calling echo for d and returns calls/s and
// the process's CPU time per call in µs (client and server together: the
// client is the same for both servers, so the difference is the server's).
func measure(h http.Handler, clients int, d time.Duration) (float64, float64, error) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 4 * clients}
	defer tr.CloseIdleConnections()
	ctx := context.Background()
	var sessions []*mcp.ClientSession
	for range clients {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + transport.MCPPath,
			HTTPClient: &http.Client{Transport: tr}, DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			return 0, 0, err
		}
		defer cs.Close()
		sessions = append(sessions, cs)
	}
	var calls atomic.Int64
	var failed atomic.Value
	deadline := time.Now().Add(d)
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
				if err != nil || res.IsError {
					failed.Store(fmt.Sprint(err, res))
					return
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), cpuTime()-cpu0
	if f := failed.Load(); f != nil {
		return 0, 0, fmt.Errorf("call failed: %v", f)
	}
	n := float64(calls.Load())
	return n / elapsed.Seconds(), float64(cpu.Microseconds()) / n, nil
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
