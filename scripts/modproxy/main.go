// Command modproxy writes a file-based Go module proxy holding one commit
// of mcpgen, so that CI can run the README's `go install ...@VERSION` line
// against the code under test:
//
//	go run ./scripts/modproxy -dir DIR [-rev HEAD]
//
// It prints the version it wrote, a pseudo-version made from the commit
// (v0.0.0-YYYYMMDDHHMMSS-abcdef123456). With GOPROXY=file://DIR (and
// GONOSUMDB=github.com/mcpgen/mcpgen: the checksum database has never seen
// the commit), `go install github.com/mcpgen/mcpgen/cmd/mcpgen@VERSION`
// installs that commit as a user would install a release.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

const modulePath = "github.com/mcpgen/mcpgen"

func main() {
	dir := flag.String("dir", "", "the proxy's directory (GOPROXY=file://DIR)")
	rev := flag.String("rev", "HEAD", "the commit to serve")
	flag.Parse()
	if *dir == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/modproxy -dir DIR [-rev HEAD]")
		os.Exit(2)
	}
	version, err := write(*dir, *rev)
	if err != nil {
		fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(version)
}

// write puts the commit rev of the repository the working directory is
// in into the proxy at dir and returns its pseudo-version.
func write(dir, rev string) (string, error) {
	hash, err := git("rev-parse", rev+"^{commit}")
	if err != nil {
		return "", err
	}
	unix, err := git("show", "-s", "--format=%ct", hash)
	if err != nil {
		return "", err
	}
	secs, err := strconv.ParseInt(unix, 10, 64)
	if err != nil {
		return "", fmt.Errorf("commit time %q: %w", unix, err)
	}
	t := time.Unix(secs, 0).UTC()
	m := module.Version{Path: modulePath, Version: module.PseudoVersion("v0", "", t, hash[:12])}
	esc, err := module.EscapePath(modulePath)
	if err != nil {
		return "", err
	}
	at := filepath.Join(dir, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return "", err
	}
	if err := writeZip(filepath.Join(at, m.Version+".zip"), m, hash); err != nil {
		return "", err
	}
	gomod, err := exec.Command("git", "show", hash+":go.mod").Output()
	if err != nil {
		return "", fmt.Errorf("reading go.mod of %s: %w", hash, err)
	}
	info, _ := json.Marshal(struct {
		Version string
		Time    time.Time
	}{m.Version, t})
	// No tagged versions (list), and this commit as the latest: the go
	// command asks for both to look for a deprecation.
	for name, data := range map[string][]byte{m.Version + ".mod": gomod, m.Version + ".info": info,
		"list": nil, "../@latest": info} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return "", err
		}
	}
	return m.Version, nil
}

// writeZip writes the module zip of the commit hash, made as the go
// command makes it from a repository: from the committed files only (a
// tree `git archive` extracts, which works in a worktree too).
func writeZip(path string, m module.Version, hash string) error {
	tree, err := os.MkdirTemp("", "modproxy")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tree)
	archive := exec.Command("git", "archive", "--format=tar", hash)
	extract := exec.Command("tar", "-x", "-C", tree)
	if extract.Stdin, err = archive.StdoutPipe(); err != nil {
		return err
	}
	if err := archive.Start(); err != nil {
		return err
	}
	if out, err := extract.CombinedOutput(); err != nil {
		return fmt.Errorf("extracting %s: %v: %s", hash, err, out)
	}
	if err := archive.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %w", hash, err)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(f, m, tree); err != nil {
		f.Close()
		return fmt.Errorf("zipping %s: %w", hash, err)
	}
	return f.Close()
}

// git runs git and returns its output, trimmed.
func git(args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
