package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestImageServesSQLite runs the container image built from the Dockerfile
// (named by MCPGEN_TEST_IMAGE, built by scripts/image-ci.sh in CI) with
// buildah: as the image's own USER and ENTRYPOINT, with examples/sqlite
// mounted read-only at /config, serving Streamable HTTP; the go-sdk client
// then lists the tools and calls one.
func TestImageServesSQLite(t *testing.T) {
	image := os.Getenv("MCPGEN_TEST_IMAGE")
	if image == "" {
		t.Skip("MCPGEN_TEST_IMAGE is not set")
	}
	cfg := imageConfig(t, image)
	if cfg.User != "65532:65532" || !slices.Equal(cfg.Entrypoint, []string{"/usr/local/bin/mcpgen"}) {
		t.Fatalf("the image runs %q as %q; want /usr/local/bin/mcpgen as 65532:65532", cfg.Entrypoint, cfg.User)
	}
	ctr := strings.TrimSpace(buildah(t, "from", "--pull=never", image))
	t.Cleanup(func() { exec.Command("buildah", "rm", ctr).Run() })

	config := filepath.Join(t.TempDir(), "sqlite") // a copy, mounted read-only: the example stays untouched
	if err := os.CopyFS(config, os.DirFS("../../examples/sqlite")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(config, "shop.db"))
	os.Chmod(filepath.Dir(config), 0o755) // user 65532 walks through it
	port := authtest.FreePort(t)
	args := []string{"run", "--user", cfg.User, "-v", config + ":/config:ro",
		"--mount", "type=tmpfs,destination=/tmp", "--env", "SHOP_DB=/tmp/shop.db", ctr, "--"}
	args = append(append(args, cfg.Entrypoint...), "serve", "--http", fmt.Sprintf("127.0.0.1:%d", port), "/config/mcpgen.yaml")
	cmd := exec.Command("buildah", args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	waitHealthy(t, base)

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "image", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connecting: %v", err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Name; got != "shop" {
		t.Errorf("serverInfo.name = %q, want shop", got)
	}
	if names := toolNames(t, cs); !slices.Contains(names, "search_customers") {
		t.Errorf("tools = %v, want search_customers among them", names)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_customers", Arguments: map[string]any{"name": "an"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	if res.IsError || !strings.Contains(string(out), "Turing") {
		t.Errorf("search_customers answered %s; want a row for Turing", out)
	}
}

// ociConfig is what the test reads of the image's configuration.
type ociConfig struct {
	User       string   `json:"User"`
	Entrypoint []string `json:"Entrypoint"`
}

func imageConfig(t *testing.T, image string) ociConfig {
	t.Helper()
	var info struct {
		OCIv1 struct {
			Config ociConfig `json:"config"`
		} `json:"OCIv1"`
	}
	if err := json.Unmarshal([]byte(buildah(t, "inspect", "--type", "image", image)), &info); err != nil {
		t.Fatalf("buildah inspect: %v", err)
	}
	return info.OCIv1.Config
}

func buildah(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("buildah", args...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("buildah %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return string(out)
}
