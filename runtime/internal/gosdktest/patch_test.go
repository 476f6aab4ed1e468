// Package gosdktest checks the go-sdk copy in runtime/internal/gosdk,
// packages of mcpgen's own module (no nested module, no `replace`): that it
// is upstream's code with runtime/internal/gosdk.patch applied, its imports
// rewritten to the copy's path, and nothing else; that the patch works; and
// that upstream still needs it. scripts/patch-go-sdk.sh re-creates the copy
// for a new SDK version.
package gosdktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

const (
	sdkModule = "github.com/modelcontextprotocol/go-sdk"
	copyPath  = "github.com/mcpgen/mcpgen/runtime/internal/gosdk"
	copyDir   = "../gosdk"
	patchFile = "../gosdk.patch"
	// A decoder of its own costs a message 32 KiB; parsed in place, a
	// tools/call request costs about 2 KiB.
	freshBufferBytes = 16 << 10
)

// request is a typical tools/call.
const request = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"location":"Basel"},"_meta":{"progressToken":1}}}`

// bytesPerDecode measures the bytes allocated to decode request, the way
// the SDK decodes every message it receives.
func bytesPerDecode(decode func([]byte) error) uint64 {
	const n = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		if err := decode([]byte(request)); err != nil {
			panic(err)
		}
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / n
}

// TestPatchApplied checks that the SDK mcpgen is built with decodes
// messages in place.
func TestPatchApplied(t *testing.T) {
	got := bytesPerDecode(func(b []byte) error { _, err := jsonrpc.DecodeMessage(b); return err })
	t.Logf("the go-sdk in use allocates %d bytes to decode a request", got)
	if got >= freshBufferBytes {
		t.Errorf("decoding a request allocates %d bytes: the go-sdk in use is not the patched copy (see scripts/patch-go-sdk.sh)", got)
	}
}

// upstreamDir downloads the upstream SDK of the copy's version and returns
// where it is.
func upstreamDir(t *testing.T) (dir, version string) {
	t.Helper()
	v, err := os.ReadFile(filepath.Join(copyDir, "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	version = strings.TrimSpace(string(v))
	cmd := exec.Command("go", "mod", "download", "-json", sdkModule+"@"+version)
	cmd.Dir = t.TempDir() // outside this module
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("downloading %s@%s: %v", sdkModule, version, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	return info.Dir, version
}

// TestCopyIsUpstreamPlusPatch checks every file of the copy against
// upstream: the same, once its imports read upstream's path again and the
// patch is taken out.
func TestCopyIsUpstreamPlusPatch(t *testing.T) {
	up, version := upstreamDir(t)
	hunks := readPatch(t)
	err := filepath.WalkDir(copyDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) == "VERSION" {
			return err
		}
		rel, _ := filepath.Rel(copyDir, path)
		mine, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if mine, err = upstreamImports(mine, rel); err != nil {
			t.Errorf("%s: %v", rel, err)
			return nil
		}
		theirs, err := os.ReadFile(filepath.Join(up, rel))
		if err != nil {
			t.Errorf("%s is not in %s@%s", rel, sdkModule, version)
			return nil
		}
		if hs, ok := hunks[rel]; ok {
			if mine, err = unpatch(mine, hs); err != nil {
				t.Errorf("%s: %v", rel, err)
				return nil
			}
		}
		if !bytes.Equal(mine, theirs) {
			t.Errorf("%s differs from %s@%s beyond the patch; re-create the copy with scripts/patch-go-sdk.sh", rel, sdkModule, version)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// upstreamImports turns the imports of a Go file of the copy back into
// upstream's, in upstream's order, as scripts/patch-go-sdk.sh diff does.
func upstreamImports(src []byte, name string) ([]byte, error) {
	if !strings.HasSuffix(name, ".go") {
		return src, nil
	}
	return format.Source(bytes.ReplaceAll(src, []byte(`"`+copyPath+`/`), []byte(`"`+sdkModule+`/`)))
}

// hunk is one hunk of a unified diff: where it starts in the new file, and
// its lines, each with its ' ', '+' or '-' mark.
type hunk struct {
	start int
	lines []string
}

// readPatch reads the patch's hunks by file.
func readPatch(t *testing.T) map[string][]hunk {
	t.Helper()
	b, err := os.ReadFile(patchFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]hunk{}
	var file string
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "+++ b/"):
			file = strings.TrimPrefix(line, "+++ b/")
		case strings.HasPrefix(line, "--- "):
		case strings.HasPrefix(line, "@@ "):
			var a, b, c int
			if _, err := fmt.Sscanf(line, "@@ -%d,%d +%d,", &a, &b, &c); err != nil {
				t.Fatalf("bad hunk header %q: %v", line, err)
			}
			out[file] = append(out[file], hunk{start: c})
		case file != "" && len(out[file]) > 0:
			h := &out[file][len(out[file])-1]
			h.lines = append(h.lines, line)
		}
	}
	return out
}

// unpatch takes the hunks out of a patched file: added lines go, removed
// lines come back, context must match.
func unpatch(patched []byte, hunks []hunk) ([]byte, error) {
	lines := strings.SplitAfter(string(patched), "\n")
	var out []string
	next := 0 // index in lines
	for _, h := range hunks {
		out = append(out, lines[next:h.start-1]...)
		next = h.start - 1
		for _, hl := range h.lines {
			mark, text := hl[:1], hl[1:]+"\n"
			switch mark {
			case "-":
				out = append(out, text)
				continue
			case "+", " ":
			default:
				return nil, fmt.Errorf("bad patch line %q", hl)
			}
			if next >= len(lines) || lines[next] != text {
				return nil, fmt.Errorf("line %d is not what the patch says: %q", next+1, strings.TrimSpace(text))
			}
			if mark == " " {
				out = append(out, text)
			}
			next++
		}
	}
	out = append(out, lines[next:]...)
	return []byte(strings.Join(out, "")), nil
}

// TestUpstreamStillDecodesIntoFreshBuffers fails when the upstream SDK of
// the copy's version no longer needs the patch: then drop the copy, the
// patch, scripts/patch-go-sdk.sh and this package, and import upstream.
// It builds a program against upstream, which takes a while.
func TestUpstreamStillDecodesIntoFreshBuffers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the upstream SDK")
	}
	_, version := upstreamDir(t)
	dir := t.TempDir()
	gomod := "module upstreamcheck\n\ngo 1.25\n\nrequire " + sdkModule + " " + version + "\n"
	main := `package main

import (
	"fmt"
	"runtime"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func main() {
	const n = 200
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		if _, err := jsonrpc.DecodeMessage([]byte(` + strconv.Quote(request) + `)); err != nil {
			panic(err)
		}
	}
	runtime.ReadMemStats(&after)
	fmt.Println((after.TotalAlloc - before.TotalAlloc) / n)
}
`
	for name, body := range map[string]string{"go.mod": gomod, "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := os.ReadFile("../../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stderr strings.Builder
	cmd.Stderr = &stderr // go run reports downloads there; only stdout is the answer
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running a program against %s@%s: %v\n%s", sdkModule, version, err, stderr.String())
	}
	got, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatalf("unexpected output %q (stderr %q)", out, stderr.String())
	}
	t.Logf("upstream %s allocates %d bytes to decode a request", version, got)
	if got < freshBufferBytes {
		t.Errorf("upstream %s@%s allocates %d bytes to decode a request: it decodes in place now, so drop the patched copy (see the package doc)", sdkModule, version, got)
	}
}
