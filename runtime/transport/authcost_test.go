package transport_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

// TestAuthCostDriver drives a server process for scripts/bench-auth-cost.sh,
// which measures what token checking costs the server in instructions
// (valgrind --tool=callgrind on the server alone: load-independent, and
// without the client's share that BenchmarkHTTPCallsAuth also counts). It
// runs only when MCPGEN_AUTHCOST_SERVER names the command that starts the
// server (`mcpgen`, possibly under valgrind); the config is benchConfig,
// with MCPGEN_AUTHCOST_MODE=jwt the same under OAuth (ES256, cached JWKS,
// required scope), with MCPGEN_AUTHCOST_MODE=header the same requests as
// jwt (the token sent) to the server without auth. It makes
// MCPGEN_AUTHCOST_N sequential tools/call requests, checks each answer,
// then asks callgrind to dump its counts and stops the server.
func TestAuthCostDriver(t *testing.T) {
	server := os.Getenv("MCPGEN_AUTHCOST_SERVER")
	if server == "" {
		t.Skip("MCPGEN_AUTHCOST_SERVER is not set (see scripts/bench-auth-cost.sh)")
	}
	n, err := strconv.Atoi(os.Getenv("MCPGEN_AUTHCOST_N"))
	if err != nil {
		t.Fatalf("MCPGEN_AUTHCOST_N: %v", err)
	}
	is := authtest.NewIssuer(t)
	config, token := benchConfig, ""
	switch os.Getenv("MCPGEN_AUTHCOST_MODE") {
	case "jwt":
		config += fmt.Sprintf("server:\n  http:\n    auth:\n      resource: %s\n      required_scopes: [tools:read]\n"+
			"      oauth: {issuer: %s, jwks_url: %s, algorithms: [ES256]}\n", authResource, is.Name, is.JWKSURL)
		token = is.Sign(t, "k1", is.Claims(authResource, "tools:read"))
	case "header":
		// The same requests, token included, to the server without auth:
		// what the token costs on the wire, before anything checks it.
		token = is.Sign(t, "k1", is.Claims(authResource, "tools:read"))
	}
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	writeFile(t, path, config)
	addr := "127.0.0.1:" + strconv.Itoa(authtest.FreePort(t))
	args := append(strings.Fields(server), "serve", "--log-level", "warn", "--http", addr, path)
	if os.Getenv("MCPGEN_AUTHCOST_STATELESS") == "1" {
		args = append(args, "--stateless")
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	client := &http.Client{Timeout: 60 * time.Second}
	post := func(body, session string) (string, string, error) {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := client.Do(req)
		if err != nil {
			return "", "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), resp.Header.Get("Mcp-Session-Id"), err
	}
	var session string
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		_, session, err = post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cost","version":"1"}}}`, "")
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		out, _, err := post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, i+2), session)
		if err != nil || !strings.Contains(out, `"hi"`) || strings.Contains(out, `"isError":true`) {
			t.Fatalf("call %d: %v %s", i, err, out)
		}
	}
	// callgrind writes its counts on request; a signal would stop it
	// without them.
	if out, err := exec.Command("callgrind_control", "-d", strconv.Itoa(cmd.Process.Pid)).CombinedOutput(); err != nil && !bytes.Contains(out, []byte("No active")) {
		t.Logf("callgrind_control: %v %s", err, out)
	}
}
