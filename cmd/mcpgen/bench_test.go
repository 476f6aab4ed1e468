package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
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

// BenchmarkStartupInProcess is BenchmarkStartup without the process: serve
// reads the 200-tool config, builds it and answers initialize on stdio. It
// is the config work alone, and what to profile (-cpuprofile) when startup
// grows.
func BenchmarkStartupInProcess(b *testing.B) {
	cfg := manyTools(b, 200)
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		std := stdio{in: strings.NewReader(initialize), out: &out, err: io.Discard}
		if runWith(context.Background(), std, "serve", cfg) != exitOK || !strings.Contains(out.String(), `"result"`) {
			b.Fatalf("no initialize response: %s", out.String())
		}
	}
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

// BenchmarkStdioSQLiteOneRow measures tools/call latency over stdio for a
// one-row SQLite query tool, as a client sees it: write the request line,
// read the response line. It reports the median and p99.
func BenchmarkStdioSQLiteOneRow(b *testing.B) {
	seed, err := filepath.Abs("../../examples/sqlite/seed.sql")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	os.WriteFile(cfg, []byte(`version: 1
backends:
  shop: {kind: sql, driver: sqlite, dsn: shop.db, init: `+seed+`}
tools:
  - name: get_customer
    description: One customer by id.
    args: [{name: id, type: integer, required: true}]
    handler:
      backend: shop
      query: SELECT id, name, email, city FROM customers WHERE id = :id
      params: {id: "${{ args.id }}"}
`), 0o644)
	cmd := exec.Command(binary(b), "serve", cfg)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { in.Close(); cmd.Wait() }()
	r := bufio.NewReader(out)
	roundTrip := func(msg string) string {
		in.Write([]byte(msg + "\n"))
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	roundTrip(strings.TrimSuffix(initialize, "\n"))
	in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_customer","arguments":{"id":1}}}`
	if line := roundTrip(call); !strings.Contains(line, `"row_count":1`) {
		b.Fatalf("unexpected answer: %s", line)
	}
	var ds []time.Duration
	for b.Loop() {
		start := time.Now()
		roundTrip(call)
		ds = append(ds, time.Since(start))
	}
	slices.Sort(ds)
	us := func(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
	b.ReportMetric(us(ds[len(ds)/2]), "µs-median")
	b.ReportMetric(us(ds[len(ds)*99/100]), "µs-p99")
	b.ReportMetric(us(ds[len(ds)-1]), "µs-max")
}
