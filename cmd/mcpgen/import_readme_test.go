package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/cmd/mcpgen/importer/openapi"
)

// TestREADMEImport runs the README's `mcpgen import openapi` example on
// the description it shows and compares the config with the one it shows.
func TestREADMEImport(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var spec, want string
	for _, block := range strings.Split(string(data), "```yaml\n")[1:] {
		text, _, _ := strings.Cut(block, "```")
		switch {
		case strings.HasPrefix(text, "openapi: "):
			spec = text
		case strings.HasPrefix(text, "# Made from"):
			want = text
		}
	}
	if spec == "" || want == "" {
		t.Fatal("the README shows no import example")
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("notes.yaml", []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), strings.Fields("import openapi notes.yaml -o mcpgen.yaml"), nil, &stderr, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, &stderr)
	}
	got, err := os.ReadFile("mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("the README's config differs from what import writes (-README +import):\n%s", diff)
	}
	t.Setenv("NOTES_TOKEN", "t")
	boot(t, "mcpgen.yaml")
}

// TestImportSummaryManyTools: an import of more tools than clients handle
// well says how to serve it in parts.
func TestImportSummaryManyTools(t *testing.T) {
	var w bytes.Buffer
	summarize(&w, &openapi.Result{Tools: make([]*openapi.Tool, 41)}, false)
	if !strings.Contains(w.String(), "wrote 41 tools\nmcpgen: some clients handle about 40 tools well; serve parts with `mcpgen serve --tags TAG`") {
		t.Errorf("summary:\n%s", &w)
	}
}
