package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// manyTools writes a config with n backend-less tools of three arguments.
func manyTools(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nserver: {name: bench}\ntools:\n")
	for i := range n {
		fmt.Fprintf(&b, `  - name: tool_%d
    description: Tool number %d, which echoes its arguments.
    args:
      - {name: id, type: integer, required: true, minimum: 1}
      - {name: query, description: What to look for, max_length: 200}
      - {name: mode, enum: [fast, full], default: fast}
    content:
      - text: "{{ .args.id }} {{ .args.query }} {{ .args.mode }}"
`, i, i)
	}
	path := filepath.Join(tb.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// reportPercentiles adds the median and p90 of ds to the benchmark output.
func reportPercentiles(b *testing.B, ds []time.Duration) {
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(ds[len(ds)/2]), "ms-median")
	b.ReportMetric(ms(ds[len(ds)*9/10]), "ms-p90")
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// BenchmarkStartup measures process start to initialize response with a
// 200-tool config, as a desktop client sees it.
func BenchmarkStartup(b *testing.B) {
	bin, cfg := binary(b), manyTools(b, 200)
	var ds []time.Duration
	for b.Loop() {
		ds = append(ds, startOnce(b, bin, "serve", cfg))
	}
	reportPercentiles(b, ds)
}

// BenchmarkStartupBaseline is the same with an empty config: what loading
// the binary and the SDK costs before any config work.
func BenchmarkStartupBaseline(b *testing.B) {
	bin := binary(b)
	cfg := filepath.Join(b.TempDir(), "empty.yaml")
	os.WriteFile(cfg, []byte("version: 1\n"), 0o644)
	var ds []time.Duration
	for b.Loop() {
		ds = append(ds, startOnce(b, bin, "serve", cfg))
	}
	reportPercentiles(b, ds)
}

func startOnce(b *testing.B, bin string, args ...string) time.Duration {
	cmd := exec.Command(bin, args...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	in.Write([]byte(initialize))
	line, err := bufio.NewReader(out).ReadString('\n')
	d := time.Since(start)
	if err != nil || !strings.Contains(line, `"result"`) {
		b.Fatalf("no initialize response: %q %v", line, err)
	}
	in.Close()
	cmd.Wait()
	return d
}

// BenchmarkValidate1000 measures `mcpgen validate` of a 1,000-tool config,
// process start to exit.
func BenchmarkValidate1000(b *testing.B) {
	bin, cfg := binary(b), manyTools(b, 1000)
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		if out, err := exec.Command(bin, "validate", cfg).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		ds = append(ds, time.Since(start))
	}
	reportPercentiles(b, ds)
}
