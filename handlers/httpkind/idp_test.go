package httpkind_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
)

// idp is a local OpenID provider (testdata/provider.mjs) run by node.
type idp struct {
	issuer string
}

// startIDP starts testdata/provider.mjs with node, from the directory named
// by MCPGEN_TEST_IDP_DIR, where npm installed oidc-provider (.ci/run does).
// It skips the test when that or node is missing.
func startIDP(t *testing.T, mcpResource, backendResource string) *idp {
	t.Helper()
	dir := os.Getenv("MCPGEN_TEST_IDP_DIR")
	node, err := exec.LookPath("node")
	if dir == "" || err != nil {
		t.Skip("set MCPGEN_TEST_IDP_DIR to a directory where `npm install oidc-provider@9.13.3` ran, and put node on PATH")
	}
	src, err := os.ReadFile(filepath.Join("testdata", "provider.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// ES modules resolve packages from their own directory: the script
	// runs from beside node_modules
	f, err := os.CreateTemp(dir, "provider-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	if _, err := f.Write(src); err != nil {
		t.Fatal(err)
	}
	f.Close()
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, f.Name())
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port), "MCP_RESOURCE="+mcpResource, "BACKEND_RESOURCE="+backendResource)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "ready" {
				ready <- true
				return
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("the identity provider stopped before it was ready:\n%s", stderr.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the identity provider did not start:\n%s", stderr.String())
	}
	return &idp{issuer: "http://127.0.0.1:" + strconv.Itoa(port)}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// clientToken gets a client-credentials access token.
func (p *idp) clientToken(t *testing.T, id, secret, scope, resource string) string {
	t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {scope}, "resource": {resource}}
	req, _ := http.NewRequest(http.MethodPost, p.issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil || tr.AccessToken == "" {
		t.Fatalf("no token from the identity provider (HTTP %d, %v)", resp.StatusCode, err)
	}
	return tr.AccessToken
}

// claims decodes a JWT's payload without checking it: the backend of the
// test only looks at what it was given.
func claims(t *testing.T, jwt string) map[string]any {
	t.Helper()
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", jwt)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTokenExchangeWithOIDCProvider exchanges a real access token for the
// MCP server at a real authorization server and checks what the backend
// receives: a token issued for it, for the same user, naming mcpgen as the
// actor, and never the caller's own token.
func TestTokenExchangeWithOIDCProvider(t *testing.T) {
	api := newRecorder(t, jsonReply(200, map[string]any{"orders": []any{}}))
	backend, mcpResource := api.URL+"/api", "http://127.0.0.1:1/mcp"
	p := startIDP(t, mcpResource, backend)
	inbound := p.clientToken(t, "mcp-user", "user-secret", "tools:read", mcpResource)
	user := auth.NewCaller(auth.Caller{Subject: "mcp-user"}, inbound)
	config := withBackend(backend, "auth:\n  token_exchange:\n    token_url: "+p.issuer+"/token\n"+
		"    client_id: mcpgen-rs\n    client_secret: rs-secret\n    resource: "+backend+"\n    scopes: [orders:read]\n",
		tool("", "path: /orders\n"))
	s := build(t, config)
	mustSucceed(t, callAs(t, s, user, "t"))
	mustSucceed(t, callAs(t, s, user, "t"))
	reqs := api.requests()
	first, second := reqs[0].Header.Get("Authorization"), reqs[1].Header.Get("Authorization")
	if first != second {
		t.Errorf("the second call exchanged again: %q, then %q", first, second)
	}
	tok := strings.TrimPrefix(first, "Bearer ")
	if tok == inbound || strings.Contains(first, inbound) {
		t.Fatal("the backend received the caller's own token")
	}
	c := claims(t, tok)
	act, _ := c["act"].(map[string]any)
	for _, check := range []struct {
		name string
		got  any
		want string
	}{{"sub", c["sub"], "mcp-user"}, {"aud", c["aud"], backend}, {"scope", c["scope"], "orders:read"},
		{"act.sub", act["sub"], "mcpgen-rs"}, {"client_id", c["client_id"], "mcpgen-rs"}} {
		if check.got != check.want {
			t.Errorf("exchanged token %s = %v, want %s", check.name, check.got, check.want)
		}
	}

	// a token the authorization server does not accept as a subject token
	// (issued for another resource) is refused, and the backend is not called
	other := p.clientToken(t, "mcpgen-rs", "rs-secret", "orders:read", backend)
	res := callAs(t, s, auth.NewCaller(auth.Caller{Subject: "mcp-user"}, other), "t")
	if got := mustFail(t, res); !strings.Contains(got, "token exchange: HTTP 400 invalid_grant") || strings.Contains(got, other) {
		t.Errorf("foreign subject token: %q", got)
	}
	if n := len(api.requests()); n != 2 {
		t.Errorf("the backend received %d requests, want 2", n)
	}
}
