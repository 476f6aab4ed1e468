package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
	"golang.org/x/oauth2"
)

// benchClients is how many clients call at once.
const benchClients = 16

const benchConfig = `
version: 1
tools:
  - name: echo
    description: Echoes its argument.
    args: [{name: text}]
    content: [{text: "{{ .args.text }}"}]
`

// BenchmarkHTTPCalls measures tools/call requests per second over
// Streamable HTTP with 16 concurrent clients (one session each) on a tool
// with no backend, for mcpgen and, in the same run, for a minimal go-sdk
// server with the same tool. Compare the req/s metrics:
//
//	go test -run '^$' -bench HTTPCalls -benchtime 5s ./runtime
func BenchmarkHTTPCalls(b *testing.B) {
	for _, stateless := range []bool{false, true} {
		mode := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		b.Run("mcpgen/"+mode, func(b *testing.B) { benchMCPGen(b, benchConfig, stateless, "") })
		b.Run("go-sdk/"+mode, func(b *testing.B) {
			benchCalls(b, minimalSDKHandler(stateless), "")
		})
	}
}

// BenchmarkHTTPCallsAuth measures what token checking costs: tools/call
// over Streamable HTTP on the same tool and server, without auth and with
// OAuth (an ES256 JWT checked against a cached JWKS, scopes checked on the
// request body), in the same run. Compare the req/s metrics:
//
//	go test -run '^$' -bench HTTPCallsAuth -benchtime 5s -count 5 ./runtime/transport
func BenchmarkHTTPCallsAuth(b *testing.B) {
	is := authtest.NewIssuer(b)
	withAuth := benchConfig + fmt.Sprintf(`server:
  http:
    auth:
      resource: %s
      required_scopes: [tools:read]
      oauth: {issuer: %s, jwks_url: %s, algorithms: [ES256]}
`, authResource, is.Name, is.JWKSURL)
	token := is.Sign(b, "k1", is.Claims(authResource, "tools:read"))
	for _, stateless := range []bool{false, true} {
		mode := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		b.Run("none/"+mode, func(b *testing.B) { benchMCPGen(b, benchConfig, stateless, "") })
		// Connecting fetches the keys, before the timer starts.
		b.Run("jwt/"+mode, func(b *testing.B) { benchMCPGen(b, withAuth, stateless, token) })
	}
}

// benchMCPGen measures tools/call on mcpgen serving config over HTTP.
func benchMCPGen(b *testing.B, config string, stateless bool, token string) {
	srv, _ := build(b, nil, config, nil)
	h := transport.NewHTTPHandler(srv, transport.HTTPOptions{Stateless: stateless})
	defer h.Close()
	benchCalls(b, h, token)
}

// staticToken is a client's OAuth handler holding one access token: the
// go-sdk's client sets it on each request itself, as it does for a token
// it obtained, so the client side costs what a real client's does.
type staticToken struct{ ts oauth2.TokenSource }

func newStaticToken(token string) auth.OAuthHandler {
	if token == "" {
		return nil
	}
	return staticToken{ts: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})}
}

func (s staticToken) TokenSource(context.Context) (oauth2.TokenSource, error) { return s.ts, nil }

func (staticToken) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("the server refused the benchmark's token")
}

// minimalSDKHandler is the go-sdk's own Streamable HTTP server with one
// echo tool, written as directly as the SDK allows.
func minimalSDKHandler(stateless bool) http.Handler {
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

// benchCalls measures tools/call over HTTP against h; a token is sent as a
// bearer credential with every request.
func benchCalls(b *testing.B, h http.Handler, token string) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 4 * benchClients}
	defer tr.CloseIdleConnections()
	ctx := context.Background()
	sessions := make([]*mcp.ClientSession, benchClients)
	for i := range sessions {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + transport.MCPPath,
			HTTPClient: &http.Client{Transport: tr}, OAuthHandler: newStaticToken(token), DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	var left atomic.Int64
	left.Store(int64(b.N))
	var failed atomic.Value
	var wg sync.WaitGroup
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	for _, cs := range sessions {
		wg.Go(func() {
			for i := 0; left.Add(-1) >= 0; i++ {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
				if err != nil || res.IsError {
					failed.Store(fmt.Sprint(err, res))
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	// CPU time (client and server, this process) per call: steadier than
	// wall time on a machine other work shares.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/req")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHTTPLimits measures what the hardening costs a normal caller:
// tools/call req/s with the default limits (body read and scanned before
// the go-sdk, per-write deadlines, call caps, per-client session caps) and,
// in the same run, with every limit off. Compare the req/s metrics:
//
//	go test -run '^$' -bench HTTPLimits -benchtime 5s ./runtime/transport
func BenchmarkHTTPLimits(b *testing.B) {
	off := transport.HTTPOptions{MaxSessionsPerClient: -1, MaxCalls: -1, MaxCallsPerBackend: -1,
		ReadTimeout: -1, WriteTimeout: -1}
	for _, stateless := range []bool{false, true} {
		mode := map[bool]string{false: "stateful", true: "stateless"}[stateless]
		for _, lim := range []struct {
			name string
			opts transport.HTTPOptions
		}{{"limits", transport.HTTPOptions{}}, {"no-limits", off}} {
			b.Run(lim.name+"/"+mode, func(b *testing.B) {
				srv, _ := build(b, nil, benchConfig, nil)
				lim.opts.Stateless = stateless
				h := transport.NewHTTPHandler(srv, lim.opts)
				defer h.Close()
				benchCalls(b, h, "")
			})
		}
	}
}
