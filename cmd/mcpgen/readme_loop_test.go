package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readmeBlock returns the body of the fenced block that follows the
// first occurrence of after in the README.
func readmeBlock(t *testing.T, after string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), after)
	if !ok {
		t.Fatalf("the README no longer says %q", after)
	}
	_, rest, _ = strings.Cut(rest, "```")
	_, rest, _ = strings.Cut(rest, "\n")
	body, _, _ := strings.Cut(rest, "```")
	return body
}

// runWith runs mcpgen with args on std.
func runWith(ctx context.Context, std stdio, args ...string) int {
	return run(ctx, args, std.in, std.out, std.err)
}

func runOut(t *testing.T, args ...string) (string, int) {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errw)
	return out.String() + errw.String(), code
}

// TestREADMEClientConfig: the README shows client-config's real output,
// with the paths of the reader's machine.
func TestREADMEClientConfig(t *testing.T) {
	got, code := runOut(t, "client-config", "--client", "cursor", "../../examples/graphql/mcpgen.yaml")
	if code != exitOK {
		t.Fatal(got)
	}
	exe, _ := os.Executable()
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	root, _ := filepath.Abs("../..")
	got = strings.ReplaceAll(got, exe, "/home/you/go/bin/mcpgen")
	got = strings.ReplaceAll(got, root, "/home/you/src/mcpgen")
	if want := readmeBlock(t, "mcpgen client-config --client cursor examples/graphql/mcpgen.yaml\n```"); got != want {
		t.Errorf("README block:\n%s\nreal output:\n%s", want, got)
	}
}

// TestREADMETestOutput: the README's test file excerpt is the example's,
// and the outputs it shows are real, a passing run and a failing one.
func TestREADMETestOutput(t *testing.T) {
	example, _ := os.ReadFile("../../examples/quickstart/mcpgen.test.yaml")
	if block := readmeBlock(t, "[examples/quickstart/mcpgen.test.yaml](examples/quickstart/mcpgen.test.yaml):"); !strings.Contains(string(example), block) {
		t.Errorf("the README's test excerpt is not in examples/quickstart/mcpgen.test.yaml:\n%s", block)
	}
	got, code := runOut(t, "test", "../../examples/quickstart")
	if want := readmeBlock(t, "mcpgen test examples/quickstart\n```"); code != exitOK || got != want {
		t.Errorf("README block:\n%s\nreal output (exit %d):\n%s", want, code, got)
	}

	// the http-api example with one argument changed: the request differs
	dir := filepath.Join(t.TempDir(), "examples", "http-api")
	os.MkdirAll(dir, 0o755)
	for _, f := range []string{"mcpgen.yaml", "mcpgen.test.yaml"} {
		data, _ := os.ReadFile(filepath.Join("../../examples/http-api", f))
		if f == "mcpgen.test.yaml" {
			data = bytes.Replace(data, []byte("priority: 1, labels"), []byte("priority: 2, labels"), 1)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	got, code = runOut(t, "test", "--run", "create sends", filepath.Join(dir, "mcpgen.test.yaml"))
	got = strings.ReplaceAll(got, dir, "examples/http-api")
	want := readmeBlock(t, "A failure says where the broken expectation is written and what came back:")
	if code != exitError || !strings.HasPrefix(got, want) {
		t.Errorf("README block:\n%s\nreal output (exit %d):\n%s", want, code, got)
	}
}

// TestREADMEInit runs the README's init command in an empty directory and
// what it says next: validate and test pass.
func TestREADMEInit(t *testing.T) {
	block := readmeBlock(t, "Flags answer the questions instead:")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "mcpgen init ") {
		t.Fatalf("unexpected README block:\n%s", block)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if out, code := runOut(t, strings.Fields(lines[0])[1:]...); code != exitOK {
		t.Fatalf("%s: exit %d\n%s", lines[0], code, out)
	}
	for _, cmd := range strings.Split(lines[1], " && ") {
		if out, code := runOut(t, strings.Fields(cmd)[1:]...); code != exitOK {
			t.Errorf("%s: exit %d\n%s", cmd, code, out)
		}
	}
}
