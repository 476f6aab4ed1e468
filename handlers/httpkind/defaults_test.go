package httpkind_test

import (
	"net/http"
	"strings"
	"testing"
)

// defaultsBackend sets, once, what every tool of the API repeats.
const defaultsBackend = `method_override: true
query: {api-version: "2024-01"}
errors:
  - {status: [404], message: "not found: {{ .response.body.error }}"}
result: ${{ response.body.data }}
pagination:
  mode: follow
  next: ${{ response.body.next_cursor }}
  cursor_param: cursor
  items: ${{ response.body.data }}
`

// TestBackendDefaults: tools inherit the backend's method override, query
// parameters, error rules, result and pagination, and override each.
func TestBackendDefaults(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/missing"):
			jsonReply(404, map[string]any{"error": "no such record"})(w, r)
		case strings.HasSuffix(r.URL.Path, "/items"):
			pages(t).Config.Handler.ServeHTTP(w, r)
		default:
			jsonReply(200, map[string]any{"data": map[string]any{"id": 7}, "other": map[string]any{"id": 8}})(w, r)
		}
	})
	tools := tool("", "method: DELETE\npath: /records/7") +
		strings.ReplaceAll(tool("", "method: DELETE\npath: /records/7\nmethod_override: false\nquery: {api-version: '2025-06'}\nresult: ${{ response.body.other }}"), "name: t", "name: own") +
		strings.ReplaceAll(tool("", "path: /records/missing"), "name: t", "name: missing") +
		strings.ReplaceAll(tool("", "path: /records/missing\nerrors:\n  - {status: [404], message: gone}"), "name: t", "name: missing_own") +
		strings.ReplaceAll(tool("", "path: /items"), "name: t", "name: list")
	s := build(t, withBackend(srv.URL+"/api", defaultsBackend, tools))

	if got := mustSucceed(t, call(t, s, "t", `{}`)); !strings.Contains(got, `"id": 7`) {
		t.Errorf("inherited result: %s", got)
	}
	r := srv.last(t)
	if r.Method != "POST" || r.Header.Get("X-Http-Method-Override") != "DELETE" || r.RawQuery != "api-version=2024-01" {
		t.Errorf("inherited request: %s %s ?%s", r.Method, r.Header.Get("X-Http-Method-Override"), r.RawQuery)
	}

	if got := mustSucceed(t, call(t, s, "own", `{}`)); !strings.Contains(got, `"id": 8`) {
		t.Errorf("own result: %s", got)
	}
	r = srv.last(t)
	if r.Method != "DELETE" || r.RawQuery != "api-version=2025-06" {
		t.Errorf("own request: %s ?%s", r.Method, r.RawQuery)
	}

	if got := mustFail(t, call(t, s, "missing", `{}`)); got != "not found: no such record" {
		t.Errorf("inherited error rule: %q", got)
	}
	if got := mustFail(t, call(t, s, "missing_own", `{}`)); got != "gone" {
		t.Errorf("own error rule first: %q", got)
	}

	res := call(t, s, "list", `{}`)
	if got := structured(t, res.StructuredContent); got != `{"items":[1,2,3,4,5],"pages":3}` {
		t.Errorf("inherited pagination: %s", got)
	}
}

func TestBackendDefaultsDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, backend, handler, want string }{
		{"cursor mode", "pagination: {mode: cursor, next: '${{ response.body.next }}'}", "path: /x",
			"backends.api.pagination.mode: cursor mode maps a tool's own cursor argument: set it on the tool"},
		{"cursor field without a body", "pagination: {mode: follow, next: '${{ response.body.next }}', cursor_field: page.after, items: '${{ response.body.data }}'}",
			"path: /x", "tools[0].handler.pagination.cursor_field: the backend's cursor_field puts the cursor in the JSON body, but the request sends no JSON object"},
		{"arguments in a default", "result: '${{ args.id }}'", "path: /x", `backends.api.result: `},
		{"bad status", "success: [2xx, 9000]", "path: /x", `backends.api.success[1]: invalid status "9000"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := diagnose(t, withBackend("https://api.example.com", tt.backend, tool("", tt.handler)))
			if !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics %q do not contain %q", got, tt.want)
			}
		})
	}
}
