package authtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// nodeDir returns the directory holding the installed Node packages
// (scripts/authtest-deps.sh), with the fixture scripts copied in, or skips
// the test when node or the packages are absent. With
// MCPGEN_TEST_AUTH_REQUIRED set (CI), their absence fails the test instead.
func nodeDir(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "node")
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", ".cache", "authtest")
	missing := func(why string) {
		if os.Getenv("MCPGEN_TEST_AUTH_REQUIRED") != "" {
			t.Fatalf("%s; run scripts/authtest-deps.sh", why)
		}
		t.Skipf("%s; run scripts/authtest-deps.sh", why)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node is not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "oidc-provider")); err != nil {
		missing("the Node test packages are not installed")
	}
	for _, f := range []string{"provider.mjs", "client.mjs"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, f), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FreePort returns a loopback port nobody listens on right now.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// IdP is a running oidc-provider: an OAuth authorization server issuing
// client-credentials tokens. Clients: mcp-reader/reader-secret (scope
// tools:read), mcp-admin/admin-secret (tools:read tools:write admin),
// mcpgen-rs/rs-secret (for introspection, and for RFC 8693 token exchange
// to Backend).
type IdP struct {
	// Issuer is http://127.0.0.1:PORT.
	Issuer string
	// JWKSURL is where the signing keys are published.
	JWKSURL string
	// IntrospectionURL is the RFC 7662 endpoint.
	IntrospectionURL string
	cmd              *exec.Cmd
	exited           chan struct{}
}

// IdPOptions configure StartIdP.
type IdPOptions struct {
	// Port of the issuer; 0 picks a free one.
	Port int
	// Resource is the MCP server's resource URI, the default audience.
	Resource string
	// Other is another server's resource URI tokens can be asked for.
	Other string
	// Opaque is a resource URI whose tokens are opaque.
	Opaque string
	// KID names the signing key (a fresh key at every start).
	KID string
	// Backend is a backend API's resource URI: client mcpgen-rs may
	// exchange tokens for Resource for tokens for it (scopes orders:read,
	// orders:write), with the user as `sub` and itself in `act`.
	Backend string
}

// StartIdP runs the provider until the test ends. A provider that has not
// answered its discovery document after startWait is stopped and started
// again (at most startAttempts times), with what it printed and the state
// of its process logged: Node under a loaded machine has been seen to sit
// before listening, and one slow start must not fail the suite.
func StartIdP(t testing.TB, o IdPOptions) *IdP {
	t.Helper()
	dir := nodeDir(t)
	pick := o.Port == 0
	var last string
	for attempt := 1; attempt <= startAttempts; attempt++ {
		if pick {
			o.Port = FreePort(t)
		}
		idp, out := startIdP(t, dir, o)
		why := idp.waitReady(startWait)
		if why == "" {
			t.Cleanup(idp.Stop)
			return idp
		}
		last = fmt.Sprintf("attempt %d on port %d: %s\n%s", attempt, o.Port, why, out)
		idp.Stop()
		t.Logf("the identity provider did not start, trying again: %s", last)
	}
	t.Fatalf("the identity provider did not start after %d attempts; last: %s", startAttempts, last)
	return nil
}

const (
	startAttempts = 3
	startWait     = 20 * time.Second
)

func startIdP(t testing.TB, dir string, o IdPOptions) (*IdP, *syncBuffer) {
	t.Helper()
	cmd := exec.Command("node", "provider.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(o.Port), "MCP_RESOURCE="+o.Resource,
		"OTHER_RESOURCE="+o.Other, "OPAQUE_RESOURCE="+o.Opaque, "KID="+o.KID,
		"BACKEND_RESOURCE="+o.Backend, "NODE_NO_WARNINGS=1")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	idp := &IdP{Issuer: fmt.Sprintf("http://127.0.0.1:%d", o.Port), cmd: cmd, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(idp.exited) }()
	idp.JWKSURL, idp.IntrospectionURL = idp.Issuer+"/jwks", idp.Issuer+"/token/introspection"
	return idp, out
}

// waitReady waits until the provider answers its discovery document, and
// says why not otherwise.
func (idp *IdP) waitReady(wait time.Duration) string {
	probe := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(wait)
	var lastErr error
	for time.Now().Before(deadline) {
		resp, err := probe.Get(idp.Issuer + "/.well-known/openid-configuration")
		if err == nil {
			var meta struct {
				JWKS  string `json:"jwks_uri"`
				Intro string `json:"introspection_endpoint"`
			}
			err = json.NewDecoder(resp.Body).Decode(&meta)
			resp.Body.Close()
			if err == nil && meta.JWKS != "" {
				idp.JWKSURL, idp.IntrospectionURL = meta.JWKS, meta.Intro
				return ""
			}
			if err == nil {
				err = fmt.Errorf("status %d without jwks_uri", resp.StatusCode)
			}
		}
		lastErr = err
		select {
		case <-idp.exited:
			return fmt.Sprintf("it exited (%v)", idp.cmd.ProcessState)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Sprintf("no discovery document after %v (last probe: %v; process %s)", wait, lastErr, procState(idp.cmd.Process.Pid))
}

// procState describes a process from /proc, for a start that hangs.
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return err.Error()
	}
	var state string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "State:") || strings.HasPrefix(l, "Threads:") || strings.HasPrefix(l, "VmRSS:") {
			state += strings.Join(strings.Fields(l), " ") + "; "
		}
	}
	if w, err := os.ReadFile(fmt.Sprintf("/proc/%d/wchan", pid)); err == nil {
		state += "wchan " + string(w)
	}
	return state
}

// Stop ends the provider.
func (idp *IdP) Stop() {
	_ = idp.cmd.Process.Kill()
	<-idp.exited
}

// Token gets a client-credentials token for resource ("" for the default)
// with scope, or fails the test.
func (idp *IdP) Token(t testing.TB, client, secret, scope, resource string) string {
	t.Helper()
	tok, err := idp.TryToken(client, secret, scope, resource)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TryToken gets a client-credentials token, or the provider's refusal.
func (idp *IdP) TryToken(client, secret, scope, resource string) (string, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}
	if resource != "" {
		form.Set("resource", resource)
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, idp.Issuer+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(client, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return "", err
	}
	tok, _ := body["access_token"].(string)
	if resp.StatusCode != http.StatusOK || tok == "" {
		return "", fmt.Errorf("token request: %s %v", resp.Status, body)
	}
	return tok, nil
}

// RunClient runs the official TypeScript MCP client against url with
// token: it lists the tools and calls tool with args (JSON). It returns
// the client's output line: {"tools":[...],"result":{...}}.
func RunClient(t testing.TB, url, token, tool, args string) (string, error) {
	t.Helper()
	cmd := exec.Command("node", "client.mjs", url, token, tool, args)
	cmd.Dir = nodeDir(t)
	cmd.Env = append(os.Environ(), "NODE_NO_WARNINGS=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// syncBuffer collects a process's output while the test may read it.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
