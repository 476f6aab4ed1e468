package gosdktest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkModule is the module path of the programs built against the SDK: a
// path inside the SDK's own, so that they may import its internal packages
// (internal/jsonrpc2) as well as its public ones.
const checkModule = sdkModule + "/upstreamcheck"

// sdkModuleDir writes a module of its own holding main.go, outside mcpgen's
// module, that requires the SDK of the copy's version: upstream's, or, when
// sdk names a directory, the SDK there (upstream with the patch applied,
// see patchedUpstream). It returns the module's directory and the version.
func sdkModuleDir(t *testing.T, sdk, main string) (dir, version string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the upstream SDK")
	}
	_, version = upstreamDir(t)
	dir = t.TempDir()
	gomod := "module " + checkModule + "\n\ngo 1.25\n\nrequire " + sdkModule + " " + version + "\n"
	if sdk != "" {
		gomod += "\nreplace " + sdkModule + " => " + sdk + "\n"
	}
	sum, err := os.ReadFile("../../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"go.mod": gomod, "main.go": main, "go.sum": string(sum)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, version
}

// goCommand is the go command args run in dir, as the SDK's own module
// would be built: its requirements may be added to go.sum, no workspace.
// -trimpath lets the build cache serve a patched SDK copied anew each time.
func goCommand(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", append(args[:1:1], append([]string{"-trimpath"}, args[1:]...)...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	return cmd
}

// runAgainst builds and runs the program main against the SDK (see
// sdkModuleDir) and returns what it printed, trimmed.
func runAgainst(t *testing.T, sdk, main string) (out, version string) {
	t.Helper()
	dir, version := sdkModuleDir(t, sdk, main)
	cmd := goCommand(dir, "run", ".")
	var stderr strings.Builder
	cmd.Stderr = &stderr // go run reports downloads there; only stdout is the answer
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("running a program against %s@%s (%s): %v\n%s", sdkModule, version, sdkName(sdk), err, stderr.String())
	}
	return strings.TrimSpace(string(b)), version
}

// compileErrors builds the program main against the SDK (see sdkModuleDir)
// with every compiler error reported (-gcflags=-e) and returns the
// compiler's output; empty when main compiles.
func compileErrors(t *testing.T, sdk, main string) string {
	t.Helper()
	dir, _ := sdkModuleDir(t, sdk, main)
	out, err := goCommand(dir, "build", "-gcflags=-e", "-o", os.DevNull, ".").CombinedOutput()
	if err == nil {
		return ""
	}
	if len(out) == 0 {
		t.Fatalf("building against %s: %v", sdkName(sdk), err)
	}
	return string(out)
}

// patchedUpstream returns a directory holding the upstream SDK of the
// copy's version with runtime/internal/gosdk.patch applied: the copy, at
// upstream's import paths. A canary proves on it that it tells the two
// apart, that it would see upstream ship what the patch does.
func patchedUpstream(t *testing.T) string {
	t.Helper()
	up, _ := upstreamDir(t)
	dir := filepath.Join(t.TempDir(), "sdk")
	if out, err := exec.Command("cp", "-r", up, dir).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", up, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	patch, err := filepath.Abs(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("patch", "-d", dir, "-p1", "--forward", "--quiet", "-i", patch).CombinedOutput(); err != nil {
		t.Fatalf("applying %s to %s: %v\n%s", patchFile, up, err, out)
	}
	return dir
}

func sdkName(sdk string) string {
	if sdk == "" {
		return "upstream"
	}
	return "upstream with the patch"
}
