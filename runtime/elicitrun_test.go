package runtime

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// paymentPage stands in for a web page the user is sent to: /pay marks a
// session paid; /status/ID answers 404 until then, and for the first two
// polls whatever happens, so that the step has to wait.
type paymentPage struct {
	mu    sync.Mutex
	paid  map[string]bool
	polls int
}

func (p *paymentPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case r.URL.Path == "/pay":
		p.paid[r.URL.Query().Get("session")] = true
	case strings.HasPrefix(r.URL.Path, "/status/"):
		p.polls++
		if p.polls <= 2 || !p.paid[strings.TrimPrefix(r.URL.Path, "/status/")] {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"receipt":"R-1"}`))
	}
}

func urlConfig(page string) string {
	return `version: 1
tools:
  - name: pay
    description: Pay an invoice.
    args: [{name: invoice, required: true}]
    steps:
      - elicit:
          message: "Pay invoice {{ .args.invoice }} on the payment page."
          url: "` + page + `/pay?invoice={{ .args.invoice | urlquery }}&session={{ .elicitation.id }}"
          as: payment
          until:
            kind: http
            base_url: ` + page + `
            path: /status/${{ steps.payment.id }}
            result: ${{ response.body }}
          poll_every: 10ms
          timeout: 30s
    content:
      - text: "Paid: {{ .steps.payment.result.receipt }}"
`
}

func compileBuiltin(t *testing.T, config string) *Server {
	t.Helper()
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": config})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: builtin.Registry()})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// payOnPage serves the payment page and urlConfig, connects a client of
// version that declares URL elicitation and pays on the page when asked,
// and calls pay, which must end paid, after the step waited. It returns
// what the client was asked and the ids of the completion notifications it
// received.
func payOnPage(t *testing.T, version string) ([]*mcp.ElicitParams, chan string) {
	page := &paymentPage{paid: map[string]bool{}}
	ts := httptest.NewServer(page)
	t.Cleanup(ts.Close)
	srv := compileBuiltin(t, urlConfig(ts.URL))
	var asked []*mcp.ElicitParams
	completed := make(chan string, 1)
	cs := session(t, srv, version, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params)
			resp, err := ts.Client().Get(req.Params.URL) // the user opens the page and pays
			if err == nil {
				resp.Body.Close()
			}
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			completed <- req.Params.ElicitationID
		},
	}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"invoice": "A 7"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || textOf(res.Content) != "Paid: R-1" {
		t.Fatalf("result: %q (isError %v)", textOf(res.Content), res.IsError)
	}
	if len(asked) != 1 || asked[0].Mode != "url" || asked[0].Message != "Pay invoice A 7 on the payment page." {
		t.Fatalf("asked %+v; want one URL elicitation", asked)
	}
	page.mu.Lock()
	defer page.mu.Unlock()
	if page.polls < 3 {
		t.Errorf("the status was polled %d times; the step did not wait", page.polls)
	}
	return asked, completed
}

// TestURLElicitation sends the user to a page and waits until the page's
// status endpoint says they finished; then the client is told the
// elicitation completed, and the tool goes on with the page's answer.
func TestURLElicitation(t *testing.T) {
	all, completed := payOnPage(t, "2025-11-25")
	asked := all[0]
	if len(asked.ElicitationID) < 20 {
		t.Fatalf("asked %+v; want an unguessable elicitationId", asked)
	}
	u, _ := url.Parse(asked.URL)
	if d := cmp.Diff(url.Values{"invoice": {"A 7"}, "session": {asked.ElicitationID}}, u.Query()); d != "" {
		t.Errorf("page URL query (-want +got):\n%s", d)
	}
	select {
	case id := <-completed:
		if id != asked.ElicitationID {
			t.Errorf("completed %q, asked %q", id, asked.ElicitationID)
		}
	case <-time.After(10 * time.Second):
		t.Error("no notifications/elicitation/complete")
	}
}

// TestURLElicitation2026: at 2026-07-28 the page is an input request of
// the call, without an elicitationId; the id the page sees is kept in the
// request state, the retry that says the user accepted waits for the page,
// and no completion notification is sent (2026-07-28 has none).
func TestURLElicitation2026(t *testing.T) {
	asked, completed := payOnPage(t, "2026-07-28")
	if asked[0].ElicitationID != "" {
		t.Fatalf("asked %+v; want no elicitationId", asked[0])
	}
	u, _ := url.Parse(asked[0].URL)
	if id := u.Query().Get("session"); len(id) < 20 {
		t.Errorf("page URL %q: no unguessable id for the page", asked[0].URL)
	}
	select {
	case id := <-completed:
		t.Errorf("notifications/elicitation/complete %q sent at 2026-07-28", id)
	default:
	}
}

// TestURLElicitationUndeclared2026: a 2026-07-28 client that did not
// declare URL elicitation gets -32021 naming elicitation.url.
func TestURLElicitationUndeclared2026(t *testing.T) {
	srv := compileBuiltin(t, urlConfig("https://pay.example"))
	cs := session(t, srv, "2026-07-28", &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			t.Error("asked")
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
	}, nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"invoice": "A 7"}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeMissingRequiredClientCapabilities || string(rpc.Data) != `{"requiredCapabilities":{"elicitation":{"url":{}}}}` {
		t.Errorf("error %v (data %s); want -32021 naming elicitation.url", err, rpcData(rpc))
	}
}

// TestURLElicitationRefused covers the ways a URL step ends without the
// page: a client without URL elicitation (never asked), a user who
// declines, and a user who never finishes.
func TestURLElicitationRefused(t *testing.T) {
	ts := httptest.NewServer(&paymentPage{paid: map[string]bool{}})
	t.Cleanup(ts.Close)
	short := strings.Replace(urlConfig(ts.URL), "timeout: 30s", "timeout: 100ms", 1)
	for _, tt := range []struct {
		name   string
		config string
		caps   *mcp.ElicitationCapabilities
		action string
		want   string
	}{
		{"form only", urlConfig(ts.URL), &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}}, "",
			"the client cannot send the user to a web page: it did not declare URL elicitation (capabilities.elicitation.url)"},
		{"declined", urlConfig(ts.URL), &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}, "decline",
			"the user declined going to " + ts.URL + "/pay?invoice=A+7&session="},
		{"never finished", short, &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}, "accept",
			"the user did not finish on the page within 100ms"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			asked := 0
			cs := session(t, compileBuiltin(t, tt.config), "2025-11-25", &mcp.ClientOptions{
				Capabilities: &mcp.ClientCapabilities{Elicitation: tt.caps},
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked++
					return &mcp.ElicitResult{Action: tt.action}, nil
				},
			}, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pay", Arguments: map[string]any{"invoice": "A 7"}})
			if err != nil {
				t.Fatal(err)
			}
			if text := textOf(res.Content); !res.IsError || !strings.Contains(text, tt.want) {
				t.Errorf("result %q (isError %v), want an error containing %q", text, res.IsError, tt.want)
			}
			if tt.action == "" && asked != 0 {
				t.Errorf("a client without URL elicitation was asked %d times", asked)
			}
		})
	}
}
