package transport_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// initOnly opens a session with initialize alone, as a flood would, and
// returns its id.
func initOnly(t *testing.T, base string) string {
	t.Helper()
	resp := rawRequest{body: initBody}.do(t, testCtx(t), base, "")
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d", resp.StatusCode)
	}
	return id
}

// TestSessionFloodDoesNotLockOut: sessions opened with initialize and
// never used fill max_sessions; a new client still gets a session (the
// oldest unused one makes room). Sessions in use are never closed for it
// (TestHTTPMaxSessions).
func TestSessionFloodDoesNotLockOut(t *testing.T) {
	t.Parallel()
	_, base, _ := serve(t, nil, robustConfig, nil, transport.HTTPOptions{MaxSessions: 20, MaxSessionsPerClient: -1})
	var flood []string
	for range 20 {
		flood = append(flood, initOnly(t, base))
	}
	cs := connect(t, base, nil) // a real client: initialize, initialized, then requests
	if _, err := cs.ListTools(testCtx(t), nil); err != nil {
		t.Fatalf("a new client during the flood: %v", err)
	}
	resp := rawRequest{body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`, session: true}.do(t, testCtx(t), base, flood[0])
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the oldest unused session: status %d, want 404 (closed to make room)", resp.StatusCode)
	}

}
