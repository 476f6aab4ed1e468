package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSecureRemoteExample serves examples/secure-remote with `mcpgen serve`
// against a real authorization server (oidc-provider, run with node) and
// calls it with client-credentials tokens, from the go-sdk client and from
// the official TypeScript SDK client.
func TestSecureRemoteExample(t *testing.T) {
	port := authtest.FreePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	resource, other := base+"/mcp", fmt.Sprintf("http://127.0.0.1:%d/mcp", authtest.FreePort(t))
	idp := authtest.StartIdP(t, authtest.IdPOptions{Resource: resource, Other: other})
	cmd := exec.Command(binary(t), "serve", "--http", fmt.Sprintf("127.0.0.1:%d", port), "../../examples/secure-remote/mcpgen.yaml")
	cmd.Env = append(os.Environ(), "OAUTH_ISSUER="+idp.Issuer, "OAUTH_AUDIENCE="+resource, "OAUTH_JWKS_URL="+idp.JWKSURL)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, base)

	t.Run("metadata", func(t *testing.T) {
		var doc struct {
			Resource string   `json:"resource"`
			Servers  []string `json:"authorization_servers"`
		}
		getJSON(t, base+"/.well-known/oauth-protected-resource/mcp", &doc)
		if doc.Resource != resource || len(doc.Servers) != 1 || doc.Servers[0] != idp.Issuer {
			t.Errorf("metadata %+v", doc)
		}
	})
	t.Run("no token", func(t *testing.T) {
		resp, err := http.Post(resource, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := `Bearer scope="tools:read", resource_metadata="` + base + `/.well-known/oauth-protected-resource/mcp"`
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%d %q, want 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	})
	t.Run("reader", func(t *testing.T) {
		cs := connectHTTP(t, resource, idp.Token(t, "mcp-reader", "reader-secret", "tools:read", ""))
		if got := toolNames(t, cs); !cmp.Equal(got, []string{"service_status"}) {
			t.Errorf("reader lists %v", got)
		}
		if got := text(callTool(t, cs, "service_status", map[string]any{"service": "mail"})); got != "mail: up" {
			t.Errorf("service_status: %q", got)
		}
		_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "restart_service", Arguments: map[string]any{"service": "mail"}})
		if err == nil || !strings.Contains(err.Error(), "Forbidden") {
			t.Errorf("reader restarting: %v, want 403", err)
		}
	})
	t.Run("writer", func(t *testing.T) {
		cs := connectHTTP(t, resource, idp.Token(t, "mcp-admin", "admin-secret", "tools:read tools:write", ""))
		if got := toolNames(t, cs); !cmp.Equal(got, []string{"restart_service", "service_status"}) {
			t.Errorf("writer lists %v", got)
		}
		if got := text(callTool(t, cs, "restart_service", map[string]any{"service": "mail"})); got != "mail: restarting" {
			t.Errorf("restart_service: %q", got)
		}
	})
	t.Run("token for another server", func(t *testing.T) {
		c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
		_, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: resource,
			HTTPClient: &http.Client{Transport: bearerTransport(idp.Token(t, "mcp-admin", "admin-secret", "tools:read", other))}}, nil)
		if err == nil || !strings.Contains(err.Error(), "Unauthorized") {
			t.Errorf("connecting with a token for %s: %v, want 401", other, err)
		}
	})
	t.Run("TypeScript SDK client", func(t *testing.T) {
		tok := idp.Token(t, "mcp-admin", "admin-secret", "tools:read tools:write", "")
		out, err := authtest.RunClient(t, resource, tok, "restart_service", `{"service":"billing"}`)
		if err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		var got struct {
			Tools  []string           `json:"tools"`
			Result mcp.CallToolResult `json:"result"`
		}
		if err := json.Unmarshal([]byte(lastLine(out)), &got); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if !cmp.Equal(sorted(got.Tools), []string{"restart_service", "service_status"}) || got.Result.IsError ||
			text(&got.Result) != "billing: restarting" {
			t.Errorf("TypeScript client: %s", out)
		}
	})
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url,
		HTTPClient: &http.Client{Transport: bearerTransport(token)}}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return sorted(names)
}

func waitHealthy(t *testing.T, base string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
	}
	t.Fatal("mcpgen serve did not become healthy")
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestReadmeSecureRemoteConfig builds the config the README shows in its
// "Secure remote serving" section.
func TestReadmeSecureRemoteConfig(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Secure remote serving")
	_, block, ok2 := strings.Cut(section, "```yaml\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("no YAML block in the README's Secure remote serving section")
	}
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"OAUTH_ISSUER": "https://idp.example.com", "OAUTH_AUDIENCE": "https://mcp.example.com/mcp",
		"OAUTH_JWKS_URL": "https://idp.example.com/jwks", "CI_API_KEY": "0123456789abcdef0123"}
	srv, ds := runtime.Compile([]string{path}, load.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }},
		runtime.BuildOptions{Registry: builtin.Registry()})
	if srv == nil || len(ds) > 0 {
		t.Fatalf("the README's config:\n%v", ds)
	}
	srv.Close()
}
