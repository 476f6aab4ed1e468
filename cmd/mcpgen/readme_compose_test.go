package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestREADMECompose writes the files of the README's section on splitting
// a config (each block names its file on its first line) and builds them
// as it says: the included tools always, the overlay's with MCPGEN_ENV,
// the .env's values unless the environment sets them, and a secret read
// from a file masked.
func TestREADMECompose(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "### Split a config: include, .env, overlays, secrets in files\n")
	if !ok {
		t.Fatal("the README has no section on splitting a config")
	}
	section, _, _ = strings.Cut(section, "\n### ")
	dir := t.TempDir()
	n := 0
	for _, block := range strings.Split(section, "```")[1:] {
		lang, body, _ := strings.Cut(block, "\n")
		name, _, _ := strings.Cut(body, "\n")
		name, ok := strings.CutPrefix(name, "# ")
		if (lang != "yaml" && lang != "sh") || !ok {
			continue
		}
		n++
		writeFile(t, filepath.Join(dir, name), body)
	}
	if n != 4 {
		t.Fatalf("want 4 files in the section, found %d", n)
	}
	build := func(env map[string]string) *runtime.Server {
		t.Helper()
		lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
		srv, ds := runtime.Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: lookup},
			runtime.BuildOptions{Registry: builtin.Registry()})
		if srv == nil {
			t.Fatalf("the section's config does not build with %v:\n%v", env, ds)
		}
		t.Cleanup(func() { srv.Close() })
		return srv
	}
	if got := build(nil).ToolNames(); !slices.Equal(got, []string{"get_invoice"}) {
		t.Errorf("without MCPGEN_ENV: tools %v, want get_invoice", got)
	}
	if got := slices.Sorted(slices.Values(build(map[string]string{"MCPGEN_ENV": "prod"}).ToolNames())); !slices.Equal(got, []string{"get_invoice", "void_invoice"}) {
		t.Errorf("MCPGEN_ENV=prod: tools %v, want get_invoice and void_invoice", got)
	}
	writeFile(t, filepath.Join(dir, "token"), "file-token-123\n")
	text := strings.ReplaceAll(readFile(t, filepath.Join(dir, "mcpgen.yaml")), "/run/secrets/billing_token", "token")
	writeFile(t, filepath.Join(dir, "mcpgen.yaml"), text)
	srv := build(map[string]string{"BILLING_URL": "http://127.0.0.1:9"})
	out, err := srv.DryRun(context.Background(), "get_invoice", []byte(`{"number": "INV-7"}`))
	if err != nil || !strings.Contains(out, "http://127.0.0.1:9/invoices/INV-7") || strings.Contains(out, "file-token-123") ||
		!strings.Contains(out, "****") {
		t.Errorf("dry run: %v\n%s\nwant the environment's URL over the .env's, and the token from the file masked", err, out)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
