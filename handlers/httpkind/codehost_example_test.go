package httpkind_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// codeHost is a fake of the API examples/code-host wraps: 120 issues, 50 a
// page linked by Link headers, ETags and 304s that do not count against
// the rate limit, 422s naming fields, and a 429 with Retry-After when the
// limit runs out.
type codeHost struct {
	mu        sync.Mutex
	remaining int
	title     string // issue 12's, which the test changes
}

func (c *codeHost) serve(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer test-token" {
		jsonReply(401, map[string]any{"message": "Bad credentials"})(w, r)
		return
	}
	if c.remaining == 0 {
		w.Header().Set("Retry-After", "3600")
		jsonReply(429, map[string]any{"message": "API rate limit exceeded"})(w, r)
		return
	}
	tag := fmt.Sprintf(`"%x"`, len(c.title)*31+len(c.title))
	if r.Method == http.MethodGet && r.URL.Path == "/api/repos/acme/rocket/issues/12" && r.Header.Get("If-None-Match") == tag {
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(c.remaining))
		w.WriteHeader(http.StatusNotModified)
		return
	}
	c.remaining--
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(c.remaining))
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/repos/acme/rocket/issues":
		c.list(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/api/repos/acme/rocket/issues/12":
		w.Header().Set("ETag", tag)
		jsonReply(200, map[string]any{"number": 12, "title": c.title})(w, r)
	case r.Method == http.MethodPost:
		var in struct{ Title string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		if in.Title == "" {
			jsonReply(422, map[string]any{"message": "Validation Failed",
				"errors": []any{map[string]any{"resource": "Issue", "field": "title", "code": "missing_field"}}})(w, r)
			return
		}
		jsonReply(201, map[string]any{"number": 121, "html_url": "https://codehost.example.com/acme/rocket/issues/121"})(w, r)
	default:
		jsonReply(404, map[string]any{"message": "Not Found"})(w, r)
	}
}

// list serves a page of issues 120..1 with links to the next and last.
func (c *codeHost) list(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	var items []any
	for n := 120 - (page-1)*50; n > max(120-page*50, 0); n-- {
		items = append(items, map[string]any{"number": n})
	}
	link := func(p int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(p))
		return "http://" + r.Host + r.URL.Path + "?" + q.Encode()
	}
	if page < 3 {
		w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, link(page+1), link(3)))
	}
	jsonReply(200, items)(w, r)
}

// TestCodeHostExample runs examples/code-host against the fake: every page
// by Link header, an unchanged issue revalidated (304, not counted), a
// changed one read again, a 422 naming its field, and a 429 saying how
// long to wait.
func TestCodeHostExample(t *testing.T) {
	t.Parallel()
	config, err := os.ReadFile("../../examples/code-host/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	api := &codeHost{remaining: 100, title: "Engine stalls"}
	srv := newRecorder(t, api.serve)
	s := buildEnv(t, string(config), map[string]string{"CODEHOST_URL": srv.URL + "/api", "CODEHOST_TOKEN": "test-token"})
	ctx := context.Background()
	structured := func(name, args string) map[string]any {
		t.Helper()
		res, err := handlertest.CallTool(ctx, s, name, []byte(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		mustSucceed(t, res)
		m, _ := res.StructuredContent.(map[string]any)
		return m
	}
	all := structured("list_issues", `{"repo": "acme/rocket", "state": "all"}`)
	if items, _ := all["items"].([]any); len(items) != 120 || fmt.Sprint(all["pages"]) != "3" {
		t.Errorf("list_issues: %d items over %v pages, want 120 over 3", len(items), all["pages"])
	}
	first := structured("get_issue", `{"repo": "acme/rocket", "number": 12}`)
	again := structured("get_issue", `{"repo": "acme/rocket", "number": 12}`)
	if again["title"] != "Engine stalls" || again["rate_limit_remaining"] != first["rate_limit_remaining"] {
		t.Errorf("revalidated issue %v after %v: want the kept one, not counted", again, first)
	}
	if h := srv.last(t).Header.Get("If-None-Match"); h == "" {
		t.Error("the second read sent no If-None-Match")
	}
	api.mu.Lock()
	api.title = "Engine stalls at launch"
	api.mu.Unlock()
	if changed := structured("get_issue", `{"repo": "acme/rocket", "number": 12}`); changed["title"] != "Engine stalls at launch" {
		t.Errorf("a changed issue read as %v", changed)
	}
	res, _ := handlertest.CallTool(ctx, s, "create_issue", []byte(`{"repo": "acme/rocket", "title": ""}`), nil)
	if got := mustFail(t, res); got != "HTTP 422 Unprocessable Entity: Validation Failed; title: missing_field" {
		t.Errorf("create_issue without a title: %q", got)
	}
	api.mu.Lock()
	api.remaining = 0
	api.mu.Unlock()
	res, _ = handlertest.CallTool(ctx, s, "list_issues_page", []byte(`{"repo": "acme/rocket"}`), nil)
	if got := mustFail(t, res); !strings.Contains(got, "API rate limit exceeded (rate limited; retry after 1h0m0s)") {
		t.Errorf("rate limited: %q", got)
	}
}
