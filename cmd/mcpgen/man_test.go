package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"
)

// manDir holds the man pages, one a command, generated from the commands'
// definitions by `go generate ./cmd/mcpgen` (which runs TestManPages with
// -update).
const manDir = "../../docs/man"

// manDate is the date the pages carry; a fixed one keeps them
// reproducible.
var manDate = time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)

// writeManPages writes the man pages of every command to dir.
func writeManPages(t *testing.T, dir string) {
	t.Helper()
	header := &doc.GenManHeader{Title: "MCPGEN", Section: "1", Source: "mcpgen", Manual: "mcpgen manual", Date: &manDate}
	if err := doc.GenManTree(rootCommand(stdio{}), header, dir); err != nil {
		t.Fatal(err)
	}
}

// TestManPages checks that docs/man holds the pages the commands'
// definitions make, no more and no less.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	writeManPages(t, dir)
	if *update {
		os.RemoveAll(manDir)
		if err := os.CopyFS(manDir, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	want, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	got, _ := filepath.Glob(filepath.Join(manDir, "*.1"))
	if diff := cmp.Diff(baseNames(want), baseNames(got)); diff != "" {
		t.Fatalf("docs/man is out of date; run go generate ./cmd/mcpgen (-want +got):\n%s", diff)
	}
	for _, w := range want {
		wantText, _ := os.ReadFile(w)
		gotText, err := os.ReadFile(filepath.Join(manDir, filepath.Base(w)))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(wantText), string(gotText)); diff != "" {
			t.Errorf("docs/man/%s is out of date; run go generate ./cmd/mcpgen (-want +got):\n%s", filepath.Base(w), diff)
		}
	}
}

// TestManPagesRender renders each page with groff and checks that the
// pages name every command and each command's page every flag.
func TestManPagesRender(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		if os.Getenv("MCPGEN_TEST_SHELLS_REQUIRED") != "" {
			t.Fatal("groff is required (MCPGEN_TEST_SHELLS_REQUIRED)")
		}
		t.Skip("no groff")
	}
	var all strings.Builder
	visit(rootCommand(stdio{}), func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c.HasParent() {
			return
		}
		page := filepath.Join(manDir, strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")
		text := render(t, page)
		all.WriteString(text)
		if !strings.Contains(text, "NAME\n       "+strings.ReplaceAll(c.CommandPath(), " ", "-")+" ") {
			t.Errorf("%s: no NAME section for %q:\n%s", page, c.CommandPath(), text)
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(text, "--"+f.Name) {
				t.Errorf("%s: flag --%s missing", page, f.Name)
			}
		})
	})
	visit(rootCommand(stdio{}), func(c *cobra.Command) {
		if c.IsAvailableCommand() && !strings.Contains(all.String(), c.CommandPath()) {
			t.Errorf("no page names %q", c.CommandPath())
		}
	})
}

// render formats a man page as plain text, failing on any groff warning.
func render(t *testing.T, page string) string {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command("groff", "-man", "-Tascii", "-P", "-cbou", "-rHY=0", "-ww", page)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		t.Fatalf("groff %s: %v\n%s", page, err, errb.String())
	}
	return out.String()
}

// visit calls fn on c and every command below it.
func visit(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		visit(sub, fn)
	}
}

func baseNames(paths []string) []string {
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	slices.Sort(names)
	return names
}
