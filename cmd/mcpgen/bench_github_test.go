package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// githubFixture is the config `mcpgen import openapi` makes of GitHub's REST
// description (npm @octokit/openapi 23.0.2, api.github.com.json: 1,223
// operations, 7.7 MB of YAML), gzipped.
const githubFixture = "../../runtime/testdata/github-rest.yaml.gz"

// githubConfig writes the GitHub fixture, unzipped, into a temporary folder.
func githubConfig(tb testing.TB) string {
	tb.Helper()
	f, err := os.Open(githubFixture)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "github-rest.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// peakMB is the peak resident set of a process that has exited.
func peakMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return float64(ru.Maxrss) / 1024 // kilobytes on Linux
}

// BenchmarkValidateGitHub measures `mcpgen validate` of the GitHub REST
// config, process start to exit, and its peak memory. Goals: 3 s, 300 MB.
func BenchmarkValidateGitHub(b *testing.B) {
	bin, cfg := binary(b), githubConfig(b)
	var ds []time.Duration
	var peak float64
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "validate", cfg)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		ds = append(ds, time.Since(start))
		peak = max(peak, peakMB(cmd.ProcessState))
	}
	reportPercentiles(b, ds)
	b.ReportMetric(peak, "MB-peak")
}

// BenchmarkInitializeGitHub measures `mcpgen serve` of the GitHub REST
// config from process start to its initialize answer (goal: 1 s), and the
// size of its tools/list answer.
func BenchmarkInitializeGitHub(b *testing.B) {
	bin, cfg := binary(b), githubConfig(b)
	var ds []time.Duration
	var listBytes int
	for b.Loop() {
		d, n := initializeAndList(b, bin, cfg)
		ds, listBytes = append(ds, d), n
	}
	reportPercentiles(b, ds)
	b.ReportMetric(float64(listBytes), "tools/list-bytes")
}

// initializeAndList starts serve on stdio, returns how long initialize
// took to be answered and the length of the tools/list answer.
func initializeAndList(tb testing.TB, bin string, args ...string) (time.Duration, int) {
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	io.WriteString(in, initialize)
	r := bufio.NewReaderSize(out, 1<<20)
	line, err := r.ReadString('\n')
	d := time.Since(start)
	if err != nil || !strings.Contains(line, `"result"`) {
		tb.Fatalf("no initialize response: %q %v", line, err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	list, err := r.ReadBytes('\n')
	if err != nil || !bytes.Contains(list, []byte(`"tools"`)) {
		tb.Fatalf("no tools/list response: %.200q %v", list, err)
	}
	return d, len(list)
}

// BenchmarkCompileGitHub is the build of the GitHub REST config in process,
// as validate does it: what bench-gate keeps from growing (allocations are
// stable where times on a shared machine are not).
func BenchmarkCompileGitHub(b *testing.B) {
	cfg := githubConfig(b)
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		std := stdio{out: &out, err: io.Discard}
		if runWith(context.Background(), std, "validate", cfg) != exitOK {
			b.Fatalf("validate failed: %s", out.String())
		}
	}
}
