package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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

// cpuTime is the CPU time (user and system) a process that has exited
// used.
func cpuTime(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

// procCPU is the CPU time (user and system) process pid has used so far,
// from /proc (Linux); 0 where it cannot be read.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:])) // state is f[0]: utime and stime are fields 14 and 15
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * time.Second / 100 // clock ticks, 100 a second on Linux
}

// reportCPU adds the median CPU time of cs, which bench-gate compares with
// its baseline: CPU time varies far less than wall time on a shared machine.
func reportCPU(b *testing.B, cs []time.Duration) {
	slices.Sort(cs)
	b.ReportMetric(float64(cs[len(cs)/2])/float64(time.Millisecond), "cpu-ms")
}

// BenchmarkValidateGitHub measures `mcpgen validate` of the GitHub REST
// config, process start to exit: wall time, CPU time and peak memory.
// Goals: 3 s, 300 MB.
func BenchmarkValidateGitHub(b *testing.B) {
	bin, cfg := binary(b), githubConfig(b)
	var ds, cs []time.Duration
	var peak float64
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "validate", cfg)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		ds, cs = append(ds, time.Since(start)), append(cs, cpuTime(cmd.ProcessState))
		peak = max(peak, peakMB(cmd.ProcessState))
	}
	reportPercentiles(b, ds)
	reportCPU(b, cs)
	b.ReportMetric(peak, "MB-peak")
}

// BenchmarkInitializeGitHub measures `mcpgen serve` of the GitHub REST
// config from process start to its initialize answer (goal: 1 s), wall
// and CPU time, and the size of its tools/list answer.
func BenchmarkInitializeGitHub(b *testing.B) {
	benchmarkInitializeGitHub(b)
}

// BenchmarkInitializeGitHubToolSearch is BenchmarkInitializeGitHub with
// --tool-search (goals: 1 s, and a tools/list of 8 KB at most).
func BenchmarkInitializeGitHubToolSearch(b *testing.B) {
	benchmarkInitializeGitHub(b, "--tool-search")
}

func benchmarkInitializeGitHub(b *testing.B, flags ...string) {
	bin, cfg := binary(b), githubConfig(b)
	var ds, cs []time.Duration
	var listBytes int
	for b.Loop() {
		d, c, n := initializeAndList(b, bin, append(flags, cfg)...)
		ds, cs, listBytes = append(ds, d), append(cs, c), n
	}
	reportPercentiles(b, ds)
	reportCPU(b, cs)
	b.ReportMetric(float64(listBytes), "tools/list-bytes")
}

// initializeAndList starts serve on stdio, returns how long initialize
// took to be answered, the CPU time serve had used then, and the length
// of the tools/list answer.
func initializeAndList(tb testing.TB, bin string, args ...string) (time.Duration, time.Duration, int) {
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
	cpu := procCPU(cmd.Process.Pid)
	if err != nil || !strings.Contains(line, `"result"`) {
		tb.Fatalf("no initialize response: %q %v", line, err)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
	list, err := r.ReadBytes('\n')
	if err != nil || !bytes.Contains(list, []byte(`"tools"`)) {
		tb.Fatalf("no tools/list response: %.200q %v", list, err)
	}
	return d, cpu, len(list)
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

// BenchmarkInitializeGitHubInProcess is BenchmarkInitializeGitHub without
// the process: serve reads the GitHub REST config, builds what it needs and
// answers initialize on stdio. It is what bench-gate keeps from growing
// (allocations), and what to profile (-cpuprofile) when startup grows.
func BenchmarkInitializeGitHubInProcess(b *testing.B) {
	cfg := githubConfig(b)
	for _, args := range [][]string{{cfg}, {"--tool-search", cfg}} {
		name := "list"
		if len(args) > 1 {
			name = "search"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var out bytes.Buffer
				std := stdio{in: strings.NewReader(initialize), out: &out, err: io.Discard}
				if runWith(context.Background(), std, append([]string{"serve"}, args...)...) != exitOK || !strings.Contains(out.String(), `"result"`) {
					b.Fatalf("no initialize response: %s", out.String())
				}
			}
		})
	}
}
