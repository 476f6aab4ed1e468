package httpkind_test

import (
	"net/http"
	"os"
	"os/exec"
	"testing"
)

// TestProxyFromEnvironment runs the call in a child process: net/http
// reads HTTP_PROXY once per process, before any test can set it.
func TestProxyFromEnvironment(t *testing.T) {
	t.Parallel()
	if os.Getenv("MCPGEN_TEST_PROXY_CHILD") == "1" {
		s := build(t, withBackend("http://tracker.example/api", "auth: {bearer: tok-123456}\nretries: {max: 0}\n", tool("", "path: /x")))
		mustSucceed(t, call(t, s, "t", `{}`))
		return
	}
	proxy := newRecorder(t, jsonReply(200, map[string]any{"ok": true}))
	cmd := exec.Command(os.Args[0], "-test.run=^TestProxyFromEnvironment$")
	cmd.Env = append(os.Environ(), "MCPGEN_TEST_PROXY_CHILD=1", "HTTP_PROXY="+proxy.URL, "NO_PROXY=", "no_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the call through the proxy failed: %v\n%s", err, out)
	}
	got := proxy.last(t)
	if got.Path != "/api/x" || got.Header.Get("Authorization") != "Bearer tok-123456" {
		t.Errorf("the proxy saw %s with Authorization %q", got.Path, got.Header.Get("Authorization"))
	}
}

func TestNoContent(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, status(http.StatusNoContent))
	s := build(t, withBackend(srv.URL, "", tool("", "method: DELETE")))
	if got := mustSucceed(t, call(t, s, "t", `{}`)); got != "HTTP 204 No Content (no content)" {
		t.Errorf("got %q", got)
	}
}
