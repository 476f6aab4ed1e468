package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The workload of issue 13 and scripts/bench-peer.sh: one SQLite table of
// five hotels, a read-only tool returning the two in Basel.
const (
	hotelsSQL = `CREATE TABLE hotels (id INTEGER PRIMARY KEY, name TEXT, location TEXT, price_tier TEXT, booked INTEGER);
INSERT INTO hotels VALUES (1, 'Hilton Basel', 'Basel', 'Luxury', 0), (2, 'Marriott Zurich', 'Zurich', 'Upscale', 0),
  (3, 'Hyatt Regency Basel', 'Basel', 'Upper Upscale', 0), (4, 'Radisson Blu Lucerne', 'Lucerne', 'Midscale', 0),
  (5, 'Best Western Bern', 'Bern', 'Upper Midscale', 0);
`
	hotelsConfig = `version: 1
backends:
  hotels: {kind: sql, driver: sqlite, dsn: hotels.db, init: hotels.sql}
tools:
  - name: search_hotels_by_location
    description: Search hotels by city/location. Returns matching rows.
    args: [{name: location, description: "City name, e.g. Basel", required: true}]
    handler:
      backend: hotels
      query: SELECT * FROM hotels WHERE location = :location
      params: {location: "${{ args.location }}"}
`
	hotelsCall = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_hotels_by_location","arguments":{"location":"Basel"}}}`
)

// hotelsFiles writes the workload's config and seed and returns the config.
func hotelsFiles(b *testing.B) string {
	dir := b.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	if err := os.WriteFile(cfg, []byte(hotelsConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hotels.sql"), []byte(hotelsSQL), 0o644); err != nil {
		b.Fatal(err)
	}
	return cfg
}

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkHTTPSQLite is the HTTP side of issue 13 in one process: `serve
// --http` (stateful and --stateless) answering tools/call on the hotels tool
// to 16 clients, each a plain HTTP client with a session of its own, each
// answer checked. It is what to profile (-cpuprofile, -memprofile) for the
// server's hot path; the client is a few lines of net/http. Compare
// allocs/op and cpu-µs/req (CPU of client and server) between changes.
func BenchmarkHTTPSQLite(b *testing.B) {
	for _, mode := range []string{"stateful", "stateless"} {
		b.Run(mode, func(b *testing.B) {
			cfg := hotelsFiles(b)
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			addr := l.Addr().String()
			l.Close()
			args := []string{"--http", addr, "--log-level", "warn"}
			if mode == "stateless" {
				args = append(args, "--stateless")
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int, 1)
			go func() {
				done <- runWith(ctx, stdio{in: strings.NewReader(""), out: io.Discard, err: io.Discard}, append(append([]string{"serve"}, args...), cfg)...)
			}()
			defer func() {
				cancel()
				select {
				case <-done:
				case <-time.After(30 * time.Second):
					b.Error("serve did not stop")
				}
			}()
			url := "http://" + addr + "/mcp"
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
			post := func(body, session string) (string, string, error) {
				req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				if session != "" {
					req.Header.Set("Mcp-Session-Id", session)
				}
				resp, err := client.Do(req)
				if err != nil {
					return "", "", err
				}
				defer resp.Body.Close()
				out, err := io.ReadAll(resp.Body)
				return string(out), resp.Header.Get("Mcp-Session-Id"), err
			}
			sessions := make([]string, 16)
			for i := range sessions {
				var err error
				for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					_, sessions[i], err = post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, "")
					if err == nil || time.Now().After(deadline) {
						break
					}
				}
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sessions[i]); err != nil {
					b.Fatal(err)
				}
				if out, _, err := post(fmt.Sprintf(hotelsCall, 2), sessions[i]); err != nil || !strings.Contains(out, "Hilton Basel") {
					b.Fatalf("first call: %v %s", err, out)
				}
			}
			var left atomic.Int64
			left.Store(int64(b.N))
			var failed atomic.Value
			var wg sync.WaitGroup
			b.ReportAllocs()
			b.ResetTimer()
			start, cpu0 := time.Now(), processCPU()
			for _, s := range sessions {
				wg.Go(func() {
					for i := 3; left.Add(-1) >= 0; i++ {
						out, _, err := post(fmt.Sprintf(hotelsCall, i), s)
						if err != nil || !strings.Contains(out, "Hilton Basel") || strings.Contains(out, `"isError":true`) {
							failed.Store(fmt.Sprint(err, out))
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			if f := failed.Load(); f != nil {
				b.Fatal(f)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/req")
		})
	}
}

// BenchmarkStdioSQLite is the stdio side of issue 13 in one process: serve
// on stdio answering tools/call on the hotels tool, one call at a time, as
// a client sees it (write the request line, read the answer line).
func BenchmarkStdioSQLite(b *testing.B) {
	cfg := hotelsFiles(b)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runWith(context.Background(), stdio{in: inR, out: outW, err: io.Discard}, "serve", "--log-level", "warn", cfg)
		outW.Close()
	}()
	defer func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			b.Error("serve did not stop")
		}
	}()
	r := bufio.NewReader(outR)
	roundTrip := func(msg string) string {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			b.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return line
	}
	roundTrip(strings.TrimSuffix(initialize, "\n"))
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	b.ReportAllocs()
	i := 2
	for b.Loop() {
		if line := roundTrip(fmt.Sprintf(hotelsCall, i)); !strings.Contains(line, "Hilton Basel") {
			b.Fatalf("unexpected answer: %s", line)
		}
		i++
	}
}
