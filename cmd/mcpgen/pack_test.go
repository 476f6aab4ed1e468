package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runMcpgen runs mcpgen in-process and returns its exit status, stdout and
// stderr.
func runMcpgen(args ...string) (int, string, string) {
	var out, errw bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errw)
	return code, out.String(), errw.String()
}

// unzip extracts a bundle into a new directory and returns it, with the
// manifest decoded.
func unzip(t *testing.T, bundle string) (string, map[string]any, []string) {
	t.Helper()
	zr, err := zip.OpenReader(bundle)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	dir := t.TempDir()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		r.Close()
		if err := os.WriteFile(p, data, f.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	var m map[string]any
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		t.Fatalf("no manifest.json: %v", err)
	}
	return dir, m, names
}

// TestPackBundle packs examples/graphql, unzips it, and runs the bundled
// server as a desktop client would: the command, arguments and
// environment of the manifest, ${__dirname} and ${user_config.*} filled in.
func TestPackBundle(t *testing.T) {
	if raceEnabled {
		t.Skip("compressing the binary under the race detector takes minutes; the plain run packs it")
	}
	t.Parallel()
	bundle := filepath.Join(t.TempDir(), "directory.mcpb")
	code, _, stderr := runMcpgen("pack", "../../examples/graphql/mcpgen.yaml", "-o", bundle, "--binary", binary(t), "--author", "Ann")
	if code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	dir, m, names := unzip(t, bundle)
	want := []string{"manifest.json", "config/mcpgen.yaml", "config/operations/create_user.graphql",
		"config/operations/user.graphql", "config/operations/users.graphql", "config/schema.graphql", "server/mcpgen"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("bundle entries (-want +got):\n%s", diff)
	}
	uc := m["user_config"].(map[string]any)
	if tok := uc["DIRECTORY_TOKEN"].(map[string]any); tok["sensitive"] != true || tok["required"] != true {
		t.Errorf("the token is not a required secret: %v", tok)
	}
	if url := uc["DIRECTORY_URL"].(map[string]any); url["sensitive"] != nil {
		t.Errorf("the URL is marked sensitive: %v", url)
	}
	cfg := m["server"].(map[string]any)["mcp_config"].(map[string]any)
	fill := func(s string) string {
		s = strings.ReplaceAll(s, "${__dirname}", dir)
		s = strings.ReplaceAll(s, "${user_config.DIRECTORY_URL}", "http://127.0.0.1:9/graphql")
		return strings.ReplaceAll(s, "${user_config.DIRECTORY_TOKEN}", "tok-0123456789")
	}
	var args []string
	for _, a := range cfg["args"].([]any) {
		args = append(args, fill(a.(string)))
	}
	cmd := exec.Command(fill(cfg["command"].(string)), args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range cfg["env"].(map[string]any) {
		cmd.Env = append(cmd.Env, k+"="+fill(v.(string)))
	}
	cmd.Dir = t.TempDir() // the bundle must not depend on the working directory
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "desktop", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("the bundled server does not start: %v", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tl := range list.Tools {
		tools = append(tools, tl.Name)
	}
	slices.Sort(tools)
	if diff := cmp.Diff([]string{"create_user", "get_user", "list_users", "user_name"}, tools); diff != "" {
		t.Errorf("tools of the bundled server (-want +got):\n%s", diff)
	}
}

func TestPackPlatforms(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fake := filepath.Join(dir, "mcpgen.exe")
	os.WriteFile(fake, []byte("MZ not really"), 0o755)
	os.MkdirAll(filepath.Join(dir, "cfg", "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "cfg", "docs", "a.md"), []byte("# A"), 0o644)
	os.WriteFile(filepath.Join(dir, "outside.sh"), []byte("#!/bin/sh\n"), 0o755)
	config := filepath.Join(dir, "cfg", "mcpgen.yaml")
	os.WriteFile(config, []byte(`version: 1
server: {name: docs}
resource_templates:
  - {uri_template: "docs://{name}", name: docs, root: docs, file: "{{ .args.name }}", description: d}
tools:
  - name: t
    description: d
    handler: {kind: shell, command: [../outside.sh, "${API_URL:-https://api.example.com}"]}
`), 0o644)
	bundle := filepath.Join(dir, "docs.mcpb")
	code, _, stderr := runMcpgen("pack", config, "-o", bundle, "--binary", fake, "--platform", "windows/arm64")
	if code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "outside.sh is outside the configs' directory and is not bundled") {
		t.Errorf("no warning about the file left out: %s", stderr)
	}
	_, m, names := unzip(t, bundle)
	if diff := cmp.Diff([]string{"manifest.json", "config/docs/a.md", "config/mcpgen.yaml", "server/mcpgen.exe"}, names); diff != "" {
		t.Errorf("bundle entries (-want +got):\n%s", diff)
	}
	if p := m["compatibility"].(map[string]any)["platforms"]; !cmp.Equal(p, []any{"win32"}) {
		t.Errorf("platforms %v", p)
	}
	url := m["user_config"].(map[string]any)["API_URL"].(map[string]any)
	if url["required"] != false || url["default"] != "https://api.example.com" {
		t.Errorf("a variable with a default: %v", url)
	}
	code, _, stderr = runMcpgen("pack", config, "-o", bundle, "--binary", fake, "--platform", "plan9/amd64")
	if code != exitError || !strings.Contains(stderr, "MCPB bundles run on darwin, linux and windows, not plan9") {
		t.Errorf("plan9: exit %d: %s", code, stderr)
	}
}

// TestPackBuild builds the binary for the platform asked for with Go: a
// stand-in for the go command records how it is run (a real cross build
// takes minutes).
func TestPackBuild(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := "#!/bin/sh\necho \"$@\" > " + log + "\nenv | grep -E '^(GOOS|GOARCH|CGO_ENABLED)=' | sort >> " + log +
		"\nwhile [ \"$1\" != -o ]; do shift; done\necho built > \"$2\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	bundle := filepath.Join(t.TempDir(), "q.mcpb")
	code, _, stderr := runMcpgen("pack", "../../examples/quickstart/mcpgen.yaml", "-o", bundle, "--platform", "darwin/arm64")
	if code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(log)
	want := "build -trimpath -ldflags=-s -w -buildid= -o " // then the output, the package, and the environment
	if !strings.HasPrefix(string(got), want) || !strings.Contains(string(got), " github.com/mcpgen/mcpgen/cmd/mcpgen\nCGO_ENABLED=0\nGOARCH=arm64\nGOOS=darwin\n") {
		t.Errorf("go was run as:\n%s", got)
	}
	dir, m, _ := unzip(t, bundle)
	if data, _ := os.ReadFile(filepath.Join(dir, "server", "mcpgen")); string(data) != "built\n" {
		t.Errorf("the bundled binary is not the one built: %q", data)
	}
	if p := m["compatibility"].(map[string]any)["platforms"]; !cmp.Equal(p, []any{"darwin"}) {
		t.Errorf("platforms %v", p)
	}
}

func TestPackServerJSON(t *testing.T) {
	t.Parallel()
	bundle := filepath.Join(t.TempDir(), "directory.mcpb")
	if code, _, stderr := runMcpgen("pack", "../../examples/graphql/mcpgen.yaml", "-o", bundle, "--binary", "../../LICENSE"); code != exitOK {
		t.Fatalf("pack: %s", stderr)
	}
	data, _ := os.ReadFile(bundle)
	sum := sha256.Sum256(data)
	code, out, stderr := runMcpgen("pack", "../../examples/graphql/mcpgen.yaml", "--server-json", "--registry-name", "io.github.ann/directory",
		"--mcpb-url", "https://example.com/directory.mcpb", "--mcpb", bundle, "--image", "ghcr.io/ann/directory:1.0.0",
		"--remote", "https://directory.example.com/mcp", "--version", "1.0.0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	pkgs := got["packages"].([]any)
	mcpb, oci := pkgs[0].(map[string]any), pkgs[1].(map[string]any)
	if mcpb["fileSha256"] != hex.EncodeToString(sum[:]) || mcpb["registryType"] != "mcpb" {
		t.Errorf("mcpb package: %v", mcpb)
	}
	if oci["identifier"] != "ghcr.io/ann/directory:1.0.0" || len(oci["environmentVariables"].([]any)) != 2 {
		t.Errorf("oci package: %v", oci)
	}
	if r := got["remotes"].([]any)[0].(map[string]any); r["url"] != "https://directory.example.com/mcp" {
		t.Errorf("remote: %v", r)
	}
	// the schema is enforced: a name without a namespace is refused
	code, _, stderr = runMcpgen("pack", "../../examples/graphql/mcpgen.yaml", "--server-json", "--registry-name", "directory",
		"--remote", "https://directory.example.com/mcp")
	if code != exitError || !strings.Contains(stderr, "does not match the registry's schema") {
		t.Errorf("a bad name: exit %d: %s", code, stderr)
	}
	code, _, stderr = runMcpgen("pack", "../../examples/graphql/mcpgen.yaml", "--server-json", "--registry-name", "io.github.ann/directory")
	if code != exitError || !strings.Contains(stderr, "give --mcpb-url, --image or --remote") {
		t.Errorf("nothing to install: exit %d: %s", code, stderr)
	}
}

// TestREADMEPack runs the `mcpgen pack` commands the README shows, in
// order, in a temporary directory (a stand-in file for the release binary).
func TestREADMEPack(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mcpgen-v0.1.0-darwin-arm64"), []byte("a release binary"), 0o755)
	n := 0
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "mcpgen pack ") {
			continue
		}
		n++
		args := strings.Fields(line)[1:]
		for i, a := range args {
			switch {
			case strings.HasPrefix(a, "examples/"):
				args[i] = "../../" + a
			case i > 0 && slices.Contains([]string{"-o", "--binary", "--mcpb"}, args[i-1]):
				args[i] = filepath.Join(dir, a)
			}
		}
		if code, _, stderr := runMcpgen(args...); code != exitOK {
			t.Errorf("%s: exit %d: %s", line, code, stderr)
		}
	}
	if n < 3 {
		t.Errorf("the README shows %d pack commands", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "server.json")); err != nil {
		t.Error(err)
	}
}

// TestPackFilesByServesRules: a resource's file is bundled (it was left
// out, and the packed server answered "Resource not found"), and a file the
// config reads through a symbolic link to outside its directory is not
// bundled but named in a warning (it was copied in silently).
func TestPackFilesByServesRules(t *testing.T) {
	if raceEnabled {
		t.Skip("compressing the binary under the race detector takes minutes; the plain run packs it")
	}
	t.Parallel()
	outside := filepath.Join(t.TempDir(), "private.tmpl")
	if err := os.WriteFile(outside, []byte("private text"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"docs/guide.md": "# guide", "skills/steps.md": "Read the guide.",
		"skills/refs/terms.md": "# terms", "mcpgen.yaml": `version: 1
server: {name: files}
resources:
  - {uri: "docs://guide", name: guide, file: docs/guide.md}
  - {uri: "docs://linked", name: linked, template_file: linked.tmpl}
skills:
  - {name: reading, description: Read it., root: skills, instructions_file: steps.md, files: [refs/terms.md], resources: ["docs://guide"]}
`} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linked.tmpl")); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "files.mcpb")
	code, _, stderr := runMcpgen("pack", filepath.Join(dir, "mcpgen.yaml"), "-o", bundle, "--binary", binary(t))
	if code != exitOK {
		t.Fatalf("pack: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "linked.tmpl is a link to "+outside+", outside the configs' directory, and is not bundled") {
		t.Errorf("no warning about the link: %s", stderr)
	}
	_, _, names := unzip(t, bundle)
	if !slices.Contains(names, "config/docs/guide.md") || slices.Contains(names, "config/linked.tmpl") {
		t.Errorf("bundle entries %q: want config/docs/guide.md and not config/linked.tmpl", names)
	}
	for _, want := range []string{"config/skills/steps.md", "config/skills/refs/terms.md"} { // a skill's files
		if !slices.Contains(names, want) {
			t.Errorf("bundle entries %q: want %s", names, want)
		}
	}
}
