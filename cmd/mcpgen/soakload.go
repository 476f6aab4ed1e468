package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxSoakInFlight caps the calls waiting at once: a server that stops
// answering makes the soak report errors instead of piling up goroutines.
const maxSoakInFlight = 1000

// soakReport sums a soak run.
type soakReport struct {
	calls, errors int
}

// soakWindow is what one window of the run saw.
type soakWindow struct {
	calls, errors int
	latencies     []time.Duration
	rss           float64 // bytes
	goroutines    float64
}

// soak runs the load against base and writes a line per window, then the
// first and last windows side by side.
func soak(ctx context.Context, base string, o soakOptions, out io.Writer) (soakReport, error) {
	c := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	if o.tool == "" {
		var err error
		if o.tool, err = listedTool(ctx, c, base); err != nil {
			return soakReport{}, err
		}
	}
	fmt.Fprintf(out, "soak: %g calls/s of %s for %s against %s/mcp\n", o.rate, o.tool, o.duration, base)
	const row = "%8s %8v %7v %10s %10s %10s %10v\n"
	fmt.Fprintf(out, row, "elapsed", "calls", "errors", "p50", "p99", "rss", "goroutines")
	var wins []soakWindow
	var rep soakReport
	var firstErr atomic.Value
	start := time.Now()
	for w := 0; time.Since(start) < o.duration && ctx.Err() == nil; w++ {
		win := runWindow(ctx, c, base, o, min(o.window, o.duration-time.Since(start)), &firstErr)
		win.rss, win.goroutines = scrape(ctx, c, base)
		wins = append(wins, win)
		rep.calls += win.calls
		rep.errors += win.errors
		fmt.Fprintf(out, row, time.Since(start).Round(time.Second), win.calls, win.errors,
			pct(win.latencies, 50), pct(win.latencies, 99), mib(win.rss), win.goroutines)
	}
	if len(wins) == 0 {
		return rep, errors.New("nothing ran")
	}
	first, last := wins[0], wins[len(wins)-1]
	fmt.Fprintf(out, "start: rss %s, goroutines %.0f, p99 %s\n", mib(first.rss), first.goroutines, pct(first.latencies, 99))
	fmt.Fprintf(out, "end:   rss %s, goroutines %.0f, p99 %s\n", mib(last.rss), last.goroutines, pct(last.latencies, 99))
	fmt.Fprintf(out, "calls %d, errors %d\n", rep.calls, rep.errors)
	if e, ok := firstErr.Load().(string); ok {
		fmt.Fprintf(out, "first error: %s\n", e)
	}
	return rep, nil
}

// runWindow starts a call every 1/rate for d, waits for them, and returns
// what they saw.
func runWindow(ctx context.Context, c *http.Client, base string, o soakOptions, d time.Duration, firstErr *atomic.Value) soakWindow {
	var mu sync.Mutex
	var win soakWindow
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxSoakInFlight)
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.rate))
	defer tick.Stop()
	end := time.After(d)
	record := func(lat time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		win.calls++
		if err != nil {
			win.errors++
			firstErr.CompareAndSwap(nil, err.Error())
			return
		}
		win.latencies = append(win.latencies, lat)
	}
	for {
		select {
		case <-ctx.Done():
			wg.Wait()
			return win
		case <-end:
			wg.Wait()
			return win
		case <-tick.C:
		}
		select {
		case sem <- struct{}{}:
		default:
			record(0, errors.New("too many calls in flight: the server is not keeping up"))
			continue
		}
		wg.Go(func() {
			defer func() { <-sem }()
			t0 := time.Now()
			err := soakCall(ctx, c, base, o.tool, o.args)
			record(time.Since(t0), err)
		})
	}
}

// soakCall makes one 2026-07-28 tools/call, which needs no session.
func soakCall(ctx context.Context, c *http.Client, base, tool, args string) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,%s}}`, tool, args, modernMeta)
	b, err := post(ctx, c, base, "tools/call", tool, body)
	if err != nil {
		return err
	}
	if !strings.Contains(string(b), `"result"`) || strings.Contains(string(b), `"isError":true`) {
		return fmt.Errorf("%.200s", b)
	}
	return nil
}

// modernMeta is what every 2026-07-28 request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func post(ctx context.Context, c *http.Client, base, method, name, body string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	return b, err
}

// listedTool returns the name of the first tool the server lists.
func listedTool(ctx context.Context, c *http.Client, base string) (string, error) {
	b, err := post(ctx, c, base, "tools/list", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`)
	if err != nil {
		return "", fmt.Errorf("listing tools: %w", err)
	}
	if i := strings.Index(string(b), "{"); i > 0 { // an event stream: the data line
		b = b[i:]
	}
	var r struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r.Result.Tools) == 0 {
		return "", fmt.Errorf("the server lists no tools (%.200s); pass --tool", b)
	}
	return r.Result.Tools[0].Name, nil
}

// scrape reads the server's resident memory and goroutines from /metrics
// (0 when it has none).
func scrape(ctx context.Context, c *http.Client, base string) (rss, goroutines float64) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, _ := strconv.ParseFloat(val, 64)
		switch name {
		case "process_resident_memory_bytes":
			rss = v
		case "go_goroutines":
			goroutines = v
		}
	}
	return rss, goroutines
}

// pct returns the p-th percentile of ds.
func pct(ds []time.Duration, p int) string {
	if len(ds) == 0 {
		return "-"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(10 * time.Microsecond).String()
}

func mib(b float64) string { return fmt.Sprintf("%.1fMiB", b/(1<<20)) }
