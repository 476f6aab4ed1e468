package gosdktest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// The patch's second part serves tools answered by a receiving middleware,
// as mcpgen's are, the way the SDK serves added tools: their results carry
// resultType at 2026-07-28, and their Mcp-Param-* headers are validated.

var regionTool = &mcp.Tool{Name: "weather", InputSchema: json.RawMessage(
	`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)}

// middlewareServer answers tools/call itself: input requests for "ask",
// a plain result for anything else.
func middlewareServer() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		HeaderTool: func(name string) *mcp.Tool {
			if name == regionTool.Name {
				return regionTool
			}
			return nil
		}})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			if req.(*mcp.CallToolRequest).Params.Name == "ask" {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"k": &mcp.ListRootsParams{}}, RequestState: "s"}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		}
	})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
}

func post(t *testing.T, url, name, args string, header map[string]string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name} {
		req.Header.Set(k, v)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestMiddlewareResultsCarryResultType(t *testing.T) {
	ts := httptest.NewServer(middlewareServer())
	defer ts.Close()
	for name, want := range map[string]string{"plain": `"resultType":"complete"`, "ask": `"resultType":"input_required"`} {
		if status, body := post(t, ts.URL, name, `{}`, nil); status != 200 || !strings.Contains(body, want) {
			t.Errorf("%s: status %d, body %s; want %s", name, status, body, want)
		}
	}
}

func TestMiddlewareToolHeadersValidated(t *testing.T) {
	ts := httptest.NewServer(middlewareServer())
	defer ts.Close()
	for _, tt := range []struct {
		name, args string
		header     map[string]string
		want       int
	}{
		{"matching", `{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "eu"}, 200},
		{"Base64", `{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "=?base64?ZXU=?="}, 200},
		{"missing", `{"region":"eu"}`, nil, 400},
		{"mismatch", `{"region":"eu"}`, map[string]string{"Mcp-Param-Region": "us"}, 400},
		{"absent argument needs no header", `{}`, nil, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts.URL, regionTool.Name, tt.args, tt.header)
			if status != tt.want || (tt.want == 400 && !strings.Contains(body, "-32020")) {
				t.Errorf("status %d, body %s; want %d", status, body, tt.want)
			}
		})
	}
}
