package transport_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// connectAt opens a client session at a protocol version: 2026-07-28 and
// later probe with server/discover and go sessionless.
func connectAt(t testing.TB, url, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + transport.MCPPath, HTTPClient: testClient},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting at %s: %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestBothErasOneEndpoint: by default one /mcp serves a 2026-07-28 client
// without a session and a 2025-11-25 client with one, side by side.
func TestBothErasOneEndpoint(t *testing.T) {
	t.Parallel()
	h, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	ctx := testCtx(t)
	modern := connectAt(t, base, "2026-07-28", nil)
	legacy := connectAt(t, base, "2025-11-25", nil)
	for _, tt := range []struct {
		cs          *mcp.ClientSession
		version     string
		wantSession bool
	}{{modern, "2026-07-28", false}, {legacy, "2025-11-25", true}} {
		if got := tt.cs.InitializeResult().ProtocolVersion; got != tt.version {
			t.Errorf("negotiated %s, want %s", got, tt.version)
		}
		if got := tt.cs.ID() != ""; got != tt.wantSession {
			t.Errorf("%s: session %q, want one: %v", tt.version, tt.cs.ID(), tt.wantSession)
		}
		res := callTool(t, ctx, tt.cs, "echo", map[string]any{"text": tt.version})
		if text := res.Content[0].(*mcp.TextContent).Text; text != "echo "+tt.version {
			t.Errorf("%s: echo answered %q", tt.version, text)
		}
	}
	if n := h.SessionCount(); n != 1 {
		t.Errorf("%d sessions open, want the legacy client's only", n)
	}
}

// TestModernRawStatuses: a 2026-07-28 request to the default endpoint gets
// that revision's statuses.
func TestModernRawStatuses(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, stepsConfig, nil, transport.HTTPOptions{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	modern := map[string]string{"Mcp-Protocol-Version": "2026-07-28"}
	for _, tt := range []struct {
		name string
		req  rawRequest
		want int
	}{
		{"tools/list", rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
			header: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}, 200},
		{"unknown method", rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{` + meta + `}}`, header: modern}, 404},
		{"initialize is gone", rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{` + meta + `}}`,
			header: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "initialize"}}, 404},
		{"missing _meta", rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
			header: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}}, 400},
		{"Mcp-Method mismatch", rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`,
			header: map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/list"}}, 400},
		{"GET", rawRequest{method: http.MethodGet, header: modern}, 405},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp := tt.req.do(t, testCtx(t), base, "")
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				t.Errorf("a 2026-07-28 request got session %q", id)
			}
		})
	}
}
