package devpage

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestHandlerNeedsToken: the page and the MCP endpoint answer only under
// the token; every other path is 404.
func TestHandlerNeedsToken(t *testing.T) {
	mcpHit := false
	h := Handler("tok", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mcpHit = r.URL.Path == "/mcp"
	}))
	for _, tt := range []struct {
		path string
		code int
	}{
		{"/tok/", 200}, {"/tok/app.js", 200}, {"/tok", 302}, {"/", 404}, {"/mcp", 404},
		{"/other/", 404}, {"/other/mcp", 404}, {"/tokx/", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1:8123"+tt.path, nil))
		if rec.Code != tt.code {
			t.Errorf("GET %s: %d, want %d", tt.path, rec.Code, tt.code)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); tt.path == "/tok/" &&
			(!strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'")) {
			t.Errorf("content security policy of the page: %q", csp)
		}
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "http://localhost:8123/tok/mcp", nil))
	if !mcpHit {
		t.Error("/tok/mcp did not reach the MCP handler at /mcp")
	}
	if a, b := NewToken(), NewToken(); len(a) != 32 || a == b {
		t.Errorf("tokens %q %q", a, b)
	}
}

// TestHandlerRefusesForeignHostsAndOrigins: a DNS rebinding page (its own
// name in Host) reaches no path, even with the token, and the MCP endpoint
// refuses a browser request from another origin; the page's own origin
// and clients that send none (not browsers) are served.
func TestHandlerRefusesForeignHostsAndOrigins(t *testing.T) {
	mcpHits := 0
	h := Handler("tok", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { mcpHits++ }))
	for _, tt := range []struct {
		name, method, url, origin string
		code, hits                int
	}{
		{"rebound name, page", "GET", "http://evil.example:8123/tok/", "", 403, 0},
		{"rebound name, MCP", "POST", "http://evil.example:8123/tok/mcp", "http://evil.example:8123", 403, 0},
		{"rebound name, no token", "GET", "http://evil.example:8123/", "", 403, 0},
		{"a lookalike of localhost", "GET", "http://localhost.evil.example:8123/tok/", "", 403, 0},
		{"loopback, another origin", "POST", "http://127.0.0.1:8123/tok/mcp", "http://127.0.0.1:3000", 403, 0},
		{"loopback, a foreign origin", "POST", "http://127.0.0.1:8123/tok/mcp", "https://evil.example", 403, 0},
		{"the page's own origin", "POST", "http://127.0.0.1:8123/tok/mcp", "http://127.0.0.1:8123", 200, 1},
		{"no origin (not a browser)", "POST", "http://[::1]:8123/tok/mcp", "", 200, 2},
		{"localhost page", "GET", "http://localhost:8123/tok/", "", 200, 2},
	} {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(tt.method, tt.url, nil)
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		h.ServeHTTP(rec, r)
		if rec.Code != tt.code || mcpHits != tt.hits {
			t.Errorf("%s: status %d, MCP calls %d; want %d, %d", tt.name, rec.Code, mcpHits, tt.code, tt.hits)
		}
	}
}

// TestPageIsSelfContained: nothing the page loads comes from elsewhere.
func TestPageIsSelfContained(t *testing.T) {
	ext := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}|@import|<script[^>]+src="[^"]*:`)
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := static.ReadFile(p)
		if m := ext.Find(b); m != nil {
			t.Errorf("%s refers to %q", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

type dry struct{}

func (dry) DryRun(_ context.Context, tool string, args []byte) (string, error) {
	return "GET /" + tool + " " + string(args), nil
}

// TestResources: the status resource reflects the last build and tells
// subscribers when it changes; the dry-run template passes the tool and
// its arguments through.
func TestResources(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil }})
	d := Register(srv, dry{})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	updated := make(chan string, 1)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI }}).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}) // the page's version
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: StatusURI}); err != nil {
		t.Fatal(err)
	}
	d.CostsFrom(func() *Costs {
		return &Costs{Encoding: "o200k_base", Tools: map[string]int{"forecast": 42}, ToolsList: 42, Total: 42, BudgetTool: 40}
	})
	d.Built(load.Diagnostics{{File: "a.yaml", Line: 3, Col: 5, Path: "tools[0]", Message: "bad", Severity: load.Error}}, false)
	if uri := <-updated; uri != StatusURI {
		t.Errorf("updated %q", uri)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: StatusURI})
	if err != nil {
		t.Fatal(err)
	}
	var got Status
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &got); err != nil {
		t.Fatal(err)
	}
	if got.OK || got.Builds != 1 || len(got.Problems) != 1 || got.Problems[0].Text != "a.yaml:3:5: tools[0]: bad" {
		t.Errorf("status %+v", got)
	}
	if c := got.Costs; c == nil || c.Tools["forecast"] != 42 || c.BudgetTool != 40 || c.Encoding != "o200k_base" {
		t.Errorf("the status's costs: %+v", got.Costs)
	}
	uri := "mcpgen-dev://dry-run/forecast?args=" + url.QueryEscape(`{"city":"Oslo"}`)
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Contents[0].Text; text != `GET /forecast {"city":"Oslo"}` {
		t.Errorf("dry run %q", text)
	}
}

// TestToolSearchSwitch: the page's tool search toggle is a POST of
// {"on": bool} under the token, refused from another origin, for another
// method and for a body that says neither; it answers the state that
// results, which the status resource reports too.
func TestToolSearchSwitch(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	d := Register(srv, dry{})
	on := false
	var asked []bool
	d.SwitchWith(Switches{ToolSearch: func() bool { return on },
		SetToolSearch: func(_ context.Context, v bool) { asked = append(asked, v); on = v }})
	h := d.Handler("tok", http.NotFoundHandler())
	for _, tt := range []struct {
		name, method, path, origin, body string
		code                             int
		want                             string
	}{
		{"on", "POST", "/tok/tool-search", "http://127.0.0.1:8123", `{"on": true}`, 200, `{"tool_search":true}`},
		{"no origin (not a browser)", "POST", "/tok/tool-search", "", `{"on": false}`, 200, `{"tool_search":false}`},
		{"another origin", "POST", "/tok/tool-search", "http://evil.example", `{"on": true}`, 403, ""},
		{"no token", "POST", "/tool-search", "", `{"on": true}`, 404, ""},
		{"GET", "GET", "/tok/tool-search", "", "", 405, ""},
		{"neither", "POST", "/tok/tool-search", "", `{}`, 400, ""},
		{"not JSON", "POST", "/tok/tool-search", "", `on`, 400, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "http://127.0.0.1:8123"+tt.path, strings.NewReader(tt.body))
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.code {
				t.Fatalf("%s %s: %d %s, want %d", tt.method, tt.path, rec.Code, rec.Body, tt.code)
			}
			if got := strings.TrimSpace(rec.Body.String()); tt.want != "" && got != tt.want {
				t.Errorf("answer %s, want %s", got, tt.want)
			}
		})
	}
	if want := []bool{true, false}; !slices.Equal(asked, want) {
		t.Errorf("switched %v, want %v (only the accepted requests)", asked, want)
	}
	on = true
	res, err := d.readStatus(context.Background(), nil)
	if err != nil || !strings.Contains(res.Contents[0].Text, `"tool_search":true`) {
		t.Errorf("status %v %v: want tool_search true", res, err)
	}
	// the package's Handler has no switch
	rec := httptest.NewRecorder()
	Handler("tok", http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequest("POST", "http://127.0.0.1:8123/tok/tool-search", strings.NewReader(`{"on": true}`)))
	if rec.Code != 404 {
		t.Errorf("Handler without switches: %d, want 404", rec.Code)
	}
}
