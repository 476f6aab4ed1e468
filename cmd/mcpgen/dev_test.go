package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// startDev runs `mcpgen dev` on a copy of the page's test config and
// returns the page's URL and the config's path.
func startDev(t *testing.T) (url, config string) {
	t.Helper()
	src, err := os.ReadFile("../../runtime/devpage/testdata/dev.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	config = filepath.Join(dir, "dev.yaml")
	if err := os.WriteFile(config, src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // diagnostics name the file as the user gave it: dev.yaml
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"dev", "dev.yaml"}, strings.NewReader(""), &bytes.Buffer{}, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("mcpgen dev did not stop")
		}
	})
	re := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/[0-9a-f]{32}/)`)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], config
		}
		select {
		case st := <-done:
			t.Fatalf("mcpgen dev exited with %d: %s", st, stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("mcpgen dev printed no URL: %s", stderr)
	return "", ""
}

// TestDevPageInBrowser drives the page in a real headless chromium
// (runtime/devpage/browsertest/drive.mjs): load, the form follows the
// schema (enum, required, default, array, nested object), dry run, fill
// and call, see the result; break the YAML and see the error with
// file:line:col; fix it and see the tool list change, without reloading
// the page, and no request leaving the page's origin. It needs chromium
// and playwright-core (scripts/devpage-deps.sh); it skips without them
// unless MCPGEN_TEST_BROWSER_REQUIRED is set, as .ci/run does. With
// MCPGEN_DEV_SCREENSHOTS=DIR it saves the screenshots the README shows.
func TestDevPageInBrowser(t *testing.T) {
	required := os.Getenv("MCPGEN_TEST_BROWSER_REQUIRED") != ""
	missing := func(what string) {
		if required {
			t.Fatal(what)
		}
		t.Skip(what)
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium, _ = exec.LookPath("chromium")
	}
	if chromium == "" {
		missing("chromium is not installed (apt-get install chromium)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	deps, _ := filepath.Abs("../../.cache/devpage")
	if _, err := os.Stat(filepath.Join(deps, "node_modules", "playwright-core")); err != nil {
		missing("playwright-core is not installed: run scripts/devpage-deps.sh")
	}
	script, _ := filepath.Abs("../../runtime/devpage/browsertest/drive.mjs")
	shots := os.Getenv("MCPGEN_DEV_SCREENSHOTS")
	if shots != "" {
		shots, _ = filepath.Abs(shots)
	}
	url, config := startDev(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// The script runs from the directory that holds node_modules.
	if err := copyFile(script, filepath.Join(deps, "drive.mjs")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, "drive.mjs")
	cmd.Dir = deps
	cmd.Env = append(os.Environ(), "DEV_URL="+url, "DEV_CONFIG="+config, "CHROMIUM="+chromium,
		"SHOTS="+shots)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok") {
		t.Fatalf("the page failed in the browser: %v\n%s", err, out)
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// TestDevRefusesOtherAddresses: the page is for this machine only.
func TestDevRefusesOtherAddresses(t *testing.T) {
	var stderr bytes.Buffer
	st := run(context.Background(), []string{"dev", "--addr", "0.0.0.0:0", "x.yaml"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	if st != exitUsage || !strings.Contains(stderr.String(), "not a loopback address") {
		t.Errorf("status %d, stderr %q", st, stderr.String())
	}
}

// TestDevCosts: the dev page's costs are validate's, with the budget.
func TestDevCosts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	os.WriteFile(path, []byte("version: 1\nserver:\n  budget: {tool_tokens: 600, tools_list_tokens: 8000}\ntools:\n"+
		"  - name: hello\n    description: Says hello to whoever asks for it.\n    content: [{text: hello}]\n"), 0o644)
	srv, ds := compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: builtin.Registry(), CountTokens: true})
	if srv == nil {
		t.Fatal(ds)
	}
	defer srv.Close()
	c := devCosts(srv.Plan().Costs)
	if c == nil || c.Tools["hello"] == 0 || c.ToolsList != c.Tools["hello"] || c.BudgetTool != 600 || c.BudgetToolsList != 8000 {
		t.Errorf("dev costs = %+v", c)
	}
}
