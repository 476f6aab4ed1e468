package redisstate

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// authedReplica serves a go-sdk server whose sessions live in s, behind
// bearer tokens that name their user.
func authedReplica(t *testing.T, s *State) *httptest.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "r", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{SessionStore: s.Sessions(), EventStore: s.Events(nil)})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}
	ts := httptest.NewServer(auth.RequireBearerToken(verify, nil)(h))
	t.Cleanup(ts.Close)
	return ts
}

func rawPost(t *testing.T, url, token, session, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestAdoptionKeepsTheSessionsUser: a replica takes over another's session
// only for the user who opened it; anyone else gets 403, as on the
// replica that opened it.
func TestAdoptionKeepsTheSessionsUser(t *testing.T) {
	a, b := twoReplicas(t)
	ra, rb := authedReplica(t, a), authedReplica(t, b)
	resp := rawPost(t, ra.URL, "alice", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
	}
	// The headers come before the result, on a stream: the session is
	// stored once the result is sent, not before.
	if body, err := io.ReadAll(resp.Body); err != nil || !strings.Contains(string(body), `"result"`) {
		t.Fatalf("initialize: %s, %v", body, err)
	}
	rawPost(t, ra.URL, "alice", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	if got := rawPost(t, rb.URL, "mallory", id, ping).StatusCode; got != http.StatusForbidden {
		t.Errorf("another user's request on the other replica: status %d, want 403", got)
	}
	if got := rawPost(t, rb.URL, "alice", id, ping).StatusCode; got != http.StatusOK {
		t.Errorf("the session's user on the other replica: status %d, want 200", got)
	}
	if got := rawPost(t, rb.URL, "alice", "UNKNOWN", ping).StatusCode; got != http.StatusNotFound {
		t.Errorf("a session nobody opened: status %d, want 404", got)
	}
}
