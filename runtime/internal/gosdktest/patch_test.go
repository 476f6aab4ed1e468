// Package gosdktest checks the go-sdk copy in runtime/internal/gosdk,
// packages of mcpgen's own module (no nested module, no `replace`): that it
// is upstream's code with runtime/internal/gosdk.patch applied, its imports
// rewritten to the copy's path, and nothing else; that the patch works; and
// that upstream still needs it. scripts/patch-go-sdk.sh re-creates the copy
// for a new SDK version.
//
// Every hunk of the patch has a canary (hunkCanaries, hunks_test.go): a
// test that builds a program against upstream and fails once upstream
// ships what the hunk does, naming the hunks to drop. Names the patch adds
// are checked by compiling a use of each (patchAPI, api_test.go),
// behaviours by probes (testdata/probe.go.txt, behaviour_test.go). Each
// canary is also run against upstream with the patch applied, where it
// must see the patch's behaviour: a canary that cannot tell the two apart
// fails.
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
	out, version := runAgainstUpstream(t, `package main

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
		if _, err := jsonrpc.DecodeMessage([]byte(`+strconv.Quote(request)+`)); err != nil {
			panic(err)
		}
	}
	runtime.ReadMemStats(&after)
	fmt.Println((after.TotalAlloc - before.TotalAlloc) / n)
}
`)
	got, err := strconv.ParseUint(out, 10, 64)
	if err != nil {
		t.Fatalf("unexpected output %q", out)
	}
	t.Logf("upstream %s allocates %d bytes to decode a request", version, got)
	if got < freshBufferBytes {
		t.Errorf("upstream %s@%s allocates %d bytes to decode a request: it decodes in place now, so drop the patched copy (see the package doc)", sdkModule, version, got)
	}
}

// TestUpstreamStillAnswersCancelledRequests fails when the upstream SDK of
// the copy's version no longer answers a request its client cancelled:
// then drop the patch's CancelByPeer/Retirer hunks (jsonrpc2/conn.go,
// mcp/transport.go, mcp/streamable.go, mcp/sse.go) and keep upstream's.
func TestUpstreamStillAnswersCancelledRequests(t *testing.T) {
	out, version := runAgainstUpstream(t, `package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	started := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Run(context.Background(), &mcp.IOTransport{Reader: inR, Writer: outW})
	lines := make(chan string, 16)
	go func() {
		for sc := bufio.NewScanner(outR); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	send := func(s string) { io.WriteString(inW, s+"\n") }
	send(`+"`"+`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`+"`"+`)
	<-lines
	send(`+"`"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"`"+`)
	send(`+"`"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}}`+"`"+`)
	<-started
	send(`+"`"+`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`+"`"+`)
	send(`+"`"+`{"jsonrpc":"2.0","id":3,"method":"ping"}`+"`"+`)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, `+"`"+`"id":2`+"`"+`) {
				fmt.Println("answered")
				return
			}
			if strings.Contains(l, `+"`"+`"id":3`+"`"+`) {
				time.Sleep(100 * time.Millisecond) // the cancelled call's answer would follow at once
				select {
				case l := <-lines:
					if strings.Contains(l, `+"`"+`"id":2`+"`"+`) {
						fmt.Println("answered")
						return
					}
				default:
				}
				fmt.Println("unanswered")
				return
			}
		case <-time.After(10 * time.Second):
			fmt.Println("timeout")
			return
		}
	}
}
`)
	t.Logf("upstream %s, a cancelled request: %s", version, out)
	if out != "answered" {
		t.Errorf("upstream %s@%s no longer answers a request its client cancelled (%s): drop the patch's CancelByPeer hunks (see the test's doc)", sdkModule, version, out)
	}
}

// runAgainstUpstream builds and runs the program main against the upstream
// SDK of the copy's version and returns what it printed, trimmed.
func runAgainstUpstream(t *testing.T, main string) (out, version string) {
	t.Helper()
	return runAgainst(t, "", main)
}
