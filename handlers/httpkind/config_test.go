package httpkind_test

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestBackendConfigErrors(t *testing.T) {
	t.Parallel()
	handler := func(extra string) string {
		return "version: 1\ntools:\n  - name: t\n    description: d\n    args: [{name: host}]\n    handler:\n      kind: http\n" + indent(extra, "      ")
	}
	for _, tt := range []struct{ name, config, want string }{
		{"no base URL", handler("path: /x"), "missing base_url"},
		{"the host cannot come from an argument", handler("base_url: https://${{ args.host }}/api"), "invalid base_url"},
		{"nor the whole URL", handler("base_url: ${{ args.host }}"), "needs an http or https scheme"},
		{"credentials in the URL", handler("base_url: https://u:p@api.example"), "must not hold credentials"},
		{"a query in the URL", handler("base_url: https://api.example/?k=v"), "must not have a query"},
		{"a header with a line break", handler("base_url: https://api.example\nheaders: {\"X-A\": \"a\\nb\"}"), "holds a line break"},
		{"connection settings under a named backend",
			withBackend("https://api.example", "", "  - name: t\n    description: d\n    handler:\n      backend: api\n      base_url: https://other.example\n"),
			"base_url belongs to the backend"},
		{"a query in the path", withBackend("https://api.example", "", tool("", "path: /x?admin=true")), "must not hold a query"},
		{"pagination without items", withBackend("https://api.example", "", tool("", "pagination: {mode: follow, next: x}")), "follow mode needs items"},
		{"unknown pagination mode", withBackend("https://api.example", "", tool("", "pagination: {mode: all, next: x}")), `expected one of follow, cursor, got "all"`},
		{"backend header with a line break", withBackend("https://api.example", "headers: {X-A: \"a\\r\\nX-B: 1\"}\n", tool("", "")), "holds a line break"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := diagnose(t, tt.config)
			if ds == "" || !strings.Contains(ds, tt.want) {
				t.Errorf("diagnostics %q do not mention %q", ds, tt.want)
			}
		})
	}
}

func TestResponseHeadersInExpressions(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v7"`)
		jsonReply(200, map[string]any{"id": 1})(w, r)
	})
	s := build(t, withBackend(srv.URL, "", tool("", `result: '${{ {"etag": response.headers.etag, "status": response.status, "id": response.body.id} }}'`)))
	res := call(t, s, "t", `{}`)
	mustSucceed(t, res)
	if got, want := structured(t, res.StructuredContent), `{"etag":"\"v7\"","id":1,"status":200}`; got != want {
		t.Errorf("result = %s, want %s", got, want)
	}
}

// TestTimeoutLeaksNothing runs alone (not in parallel) so that it can count
// goroutines: timed-out calls against a hanging server leave none behind.
func TestTimeoutLeaksNothing(t *testing.T) {
	srv, aborted := hanging(t)
	s := build(t, withBackend(srv.URL, "timeout: 100ms\n", tool("", "")))
	before := runtime.NumGoroutine()
	for range 5 {
		mustFail(t, call(t, s, "t", `{}`))
		waitAborted(t, aborted)
	}
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after 5 timed-out calls, %d before", n, before)
	}
}

func TestAnnotationWarnings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, annotations, handler, want string }{
		{"read_only POST", "read_only: true", "method: POST", "annotated read_only but sends POST"},
		{"destructive GET", "destructive: true", "", "annotated destructive but sends GET"},
		{"idempotent PATCH", "idempotent: true", "method: PATCH", "annotated idempotent but sends PATCH"},
		{"idempotent handler, not annotated so", "idempotent: false", "method: POST\nidempotent: true", "annotated idempotent: false"},
		{"consistent", "read_only: true", "method: GET", ""},
		{"a POST that only reads", "read_only: true", "method: POST\nidempotent: true", ""},
		{"idempotent PATCH marked so", "idempotent: true", "method: PATCH\nidempotent: true", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := withBackend("http://127.0.0.1:9", "", "  - name: t\n    description: d\n    annotations: {"+tt.annotations+"}\n"+
				"    handler:\n      backend: api\n"+indent(tt.handler, "      "))
			ds := diagnose(t, cfg)
			switch {
			case tt.want == "" && ds != "":
				t.Errorf("want no diagnostics, got %q", ds)
			case tt.want != "" && (!strings.Contains(ds, "warning") || !strings.Contains(ds, tt.want)):
				t.Errorf("want a warning %q, got %q", tt.want, ds)
			}
		})
	}
}
