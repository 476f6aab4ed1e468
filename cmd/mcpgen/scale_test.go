package main

import (
	"bufio"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

// scaleConfig is the server of the scale-out test: state in the machine's
// Redis under a prefix of the test's own.
const scaleConfig = `version: 1
server:
  name: scale
  state: {redis: {addr: %q, prefix: %q}}
tools:
  - name: ping
    description: Answers pong.
    handler: {kind: shell, command: [echo, pong]}
  - name: slow_ping
    description: Answers pong after 300 ms.
    handler: {kind: shell, command: [sh, -c, "sleep 0.3; echo pong"]}
  - name: limited
    description: Ten calls a second per caller, whichever replica answers.
    rate_limit: {per_caller: 10/s}
    handler: {kind: shell, command: [echo, ok]}
`

// haproxyConfig returns the README's HAProxy config ("Scale out"), the
// recipe under test, listening at front and balancing over servers. Each
// answer says which replica gave it (X-Replica).
func haproxyConfig(t *testing.T, front string, servers []string) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "```haproxy\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok || !strings.Contains(block, "  bind :8080\n") {
		t.Fatal("the README shows no HAProxy config binding :8080")
	}
	var out []string
	for line := range strings.Lines(block) {
		switch {
		case strings.HasPrefix(line, "  server "):
		case line == "  bind :8080\n":
			out = append(out, "  bind "+front+"\n")
		default:
			out = append(out, line)
		}
	}
	out = append(out, "  http-response set-header X-Replica %s\n")
	for _, s := range servers {
		out = append(out, "  server "+s+" check\n")
	}
	return strings.Join(out, "")
}

// scaleReplica is one `mcpgen serve --http` process.
type scaleReplica struct {
	name, addr string
	cmd        *exec.Cmd
}

// TestScaleOut runs three replicas behind HAProxy with their state in
// Redis: rate limits hold across replicas, sessionless calls spread over
// all of them and survive the death of one, and a session with a
// resumable stream survives the death of the replica that served it.
func TestScaleOut(t *testing.T) {
	redisAddr := os.Getenv("MCPGEN_TEST_REDIS_ADDR")
	if redisAddr == "" {
		t.Skip("MCPGEN_TEST_REDIS_ADDR is not set")
	}
	haproxy, err := exec.LookPath("haproxy")
	if err != nil {
		if os.Getenv("MCPGEN_TEST_HAPROXY_REQUIRED") != "" {
			t.Fatal("haproxy is required (MCPGEN_TEST_HAPROXY_REQUIRED) and not installed")
		}
		t.Skip("haproxy is not installed")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "mcpgen.yaml")
	prefix := "scale-test:" + rand.Text()[:10] + ":"
	if err := os.WriteFile(cfg, fmt.Appendf(nil, scaleConfig, redisAddr, prefix), 0o600); err != nil {
		t.Fatal(err)
	}
	replicas := make([]*scaleReplica, 3)
	var servers []string
	for i := range replicas {
		replicas[i] = startReplica(t, cfg, fmt.Sprintf("r%d", i+1))
		servers = append(servers, replicas[i].name+" "+replicas[i].addr)
	}
	front := fmt.Sprintf("127.0.0.1:%d", authtest.FreePort(t))
	hcfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(hcfg, []byte(haproxyConfig(t, front, servers)), 0o600); err != nil {
		t.Fatal(err)
	}
	lb := exec.Command(haproxy, "-db", "-f", hcfg)
	lb.Stdout, lb.Stderr = io.Discard, os.Stderr
	if err := lb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lb.Process.Kill(); _ = lb.Wait() })
	base := "http://" + front
	waitAllUp(t, base, len(replicas))

	t.Run("rate limits hold across replicas", func(t *testing.T) { rateAcrossReplicas(t, base) })
	t.Run("sessionless calls survive a replica's death", func(t *testing.T) { sessionlessFailover(t, base, replicas) })
	t.Run("a session survives its replica's death", func(t *testing.T) { sessionFailover(t, base, replicas) })
}

// startReplica starts `mcpgen serve --http` on a free loopback port and
// waits until it is healthy; it is killed with the test.
func startReplica(t *testing.T, cfg, name string) *scaleReplica {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", authtest.FreePort(t))
	cmd := exec.Command(binary(t), "serve", "--http", addr, cfg)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, "http://"+addr)
	return &scaleReplica{name: name, addr: addr, cmd: cmd}
}

// waitAllUp waits until HAProxy sends requests to every replica.
func waitAllUp(t *testing.T, base string, n int) {
	t.Helper()
	seen := map[string]bool{}
	for deadline := time.Now().Add(30 * time.Second); len(seen) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("HAProxy reached only %v of %d replicas", seen, n)
		}
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if r := resp.Header.Get("X-Replica"); resp.StatusCode == 200 && r != "" {
				seen[r] = true
			}
		}
	}
}

// callResult is one tools/call as the client saw it.
type callResult struct {
	replica      string
	start, end   time.Time
	err          error
	isError      bool
	refusedLimit bool
}

// modernCall sends a 2026-07-28 tools/call, which needs no session.
func modernCall(c *http.Client, base, tool string) (r callResult) {
	r.start = time.Now()
	defer func() { r.end = time.Now() }()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},` + meta + `}}`
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := c.Do(req)
	if err != nil {
		r.err = err
		return r
	}
	defer resp.Body.Close()
	r.replica = resp.Header.Get("X-Replica")
	b, err := io.ReadAll(resp.Body)
	switch {
	case err != nil:
		r.err = err
	case resp.StatusCode != 200 || !strings.Contains(string(b), `"result"`):
		r.err = fmt.Errorf("status %d: %s", resp.StatusCode, b)
	default:
		r.isError = strings.Contains(string(b), `"isError":true`)
		r.refusedLimit = strings.Contains(string(b), "rate limit exceeded")
	}
	return r
}

// hammer calls tool from workers goroutines until stop is closed.
func hammer(base, tool string, workers int, stop <-chan struct{}) []callResult {
	var mu sync.Mutex
	var out []callResult
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := modernCall(freshClient, base, tool)
				mu.Lock()
				out = append(out, r)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return out
}

// rateAcrossReplicas: a caller limited to 10 calls a second gets about 10
// a second from the three replicas together (plus the burst), not 30.
func rateAcrossReplicas(t *testing.T, base string) {
	stop := make(chan struct{})
	start := time.Now()
	time.AfterFunc(3*time.Second, func() { close(stop) })
	results := hammer(base, "limited", 4, stop)
	elapsed := time.Since(start).Seconds()
	allowed, refused, replicas := 0, 0, map[string]bool{}
	for _, r := range results {
		switch {
		case r.err != nil:
			t.Errorf("call failed: %v", r.err)
		case r.refusedLimit:
			refused++
		case !r.isError:
			allowed++
		}
		replicas[r.replica] = true
	}
	want := 10 + 10*elapsed // burst, then the rate
	t.Logf("%d calls allowed, %d refused in %.1fs over %d replicas; the limit allows %.0f", allowed, refused, elapsed, len(replicas), want)
	if len(replicas) != 3 {
		t.Errorf("calls went to %v, want all three replicas", replicas)
	}
	if float64(allowed) > want+3 || float64(allowed) < 0.7*want {
		t.Errorf("%d calls allowed in %.1fs, want about %.0f: the limit does not hold across replicas", allowed, elapsed, want)
	}
	if refused == 0 {
		t.Error("no call was refused: the load did not reach the limit")
	}
}

// sessionlessFailover: 2026-07-28 calls spread over every replica; when
// one is killed in the middle, the only calls that fail are calls that
// were in flight when it died.
func sessionlessFailover(t *testing.T, base string, replicas []*scaleReplica) {
	stop := make(chan struct{})
	victim := replicas[0]
	// from the signal to the end of the process, calls may reach it
	var killedAt, deadAt time.Time
	time.AfterFunc(1500*time.Millisecond, func() {
		killedAt = time.Now()
		_ = victim.cmd.Process.Kill()
		_ = victim.cmd.Wait()
		deadAt = time.Now()
		time.AfterFunc(2500*time.Millisecond, func() { close(stop) })
	})
	results := hammer(base, "ping", 6, stop)
	before, after := map[string]int{}, map[string]int{}
	failed := 0
	for _, r := range results {
		if r.err != nil || r.isError {
			failed++
			if r.start.After(deadAt) || r.end.Before(killedAt) {
				t.Errorf("a call not in flight when %s died (killed, dead %s later) failed: started %s, ended %s after the kill: %v",
					victim.name, deadAt.Sub(killedAt), r.start.Sub(killedAt), r.end.Sub(killedAt), r.err)
			}
			continue
		}
		if r.start.Before(killedAt) {
			before[r.replica]++
		} else {
			after[r.replica]++
		}
	}
	t.Logf("%d calls, %d failed (in flight during the %s %s took to die); before the kill by replica %v, after %v",
		len(results), failed, deadAt.Sub(killedAt), victim.name, before, after)
	if len(before) != 3 {
		t.Errorf("before the kill calls went to %v, want all three replicas", before)
	}
	if after[victim.name] > 0 || len(after) != 2 {
		t.Errorf("after the kill calls went to %v, want the two others", after)
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ id, data string }

// readEvents reads a response's events, JSON or SSE.
func readEvents(resp *http.Response) []sseEvent {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		return []sseEvent{{data: string(b)}}
	}
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur != (sseEvent{}) {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "id:"):
			cur.id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			cur.data += strings.TrimSpace(line[5:])
		}
	}
	if cur != (sseEvent{}) {
		out = append(out, cur)
	}
	return out
}

// freshClient opens a connection to the load balancer for each request. A
// kept-alive one may be the connection HAProxy paired with a replica the
// test kills, and Go does not resend a POST whose connection closed under
// it (seen in CI as "Post …: EOF" right after the kill: once for a session,
// once for a sessionless call that started 3 ms after the kill).
var freshClient = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// session is a 2025-11-25 client over raw HTTP.
type session struct {
	t    *testing.T
	base string
	id   string
}

// post sends one message on the session and returns the replica that
// answered, the status and the events.
func (s *session) post(body string) (string, int, []sseEvent) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := freshClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && s.id == "" {
		s.id = id
	}
	return resp.Header.Get("X-Replica"), resp.StatusCode, readEvents(resp)
}

// sessionFailover: a 2025-11-25 session opened on one replica goes on on
// another once that replica is killed, and a stream it served there is
// replayed from Redis with Last-Event-ID.
func sessionFailover(t *testing.T, base string, replicas []*scaleReplica) {
	s := &session{t: t, base: base}
	served, status, _ := s.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"scale","version":"1"}}}`)
	if status != 200 || s.id == "" {
		t.Fatalf("initialize: status %d, session %q", status, s.id)
	}
	if _, status, _ := s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != 202 {
		t.Fatalf("notifications/initialized: status %d", status)
	}
	// a call still running after the 100 ms a plain JSON reply waits for
	// is answered as a stream, resumable from its first (priming) event
	r, status, events := s.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow_ping","arguments":{}}}`)
	if status != 200 || r != served {
		t.Fatalf("tools/call: status %d from %s; want 200 from %s, the session's replica", status, r, served)
	}
	if len(events) == 0 || events[0].id == "" || !strings.Contains(events[len(events)-1].data, "pong") {
		t.Fatalf("tools/call: want a resumable stream ending with the result, got %+v", events)
	}
	firstID := events[0].id
	for _, rp := range replicas {
		if rp.name == served {
			_ = rp.cmd.Process.Kill()
			_ = rp.cmd.Wait()
		}
	}
	r, status, events = s.post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ping","arguments":{}}}`)
	if status != 200 || r == served || len(events) == 0 || !strings.Contains(events[len(events)-1].data, `"id":3`) {
		t.Fatalf("after %s died: status %d from %q, events %+v; want the call answered by another replica", served, status, r, events)
	}
	t.Logf("session %s moved from %s to %s", s.id, served, r)
	// The stream of the call answered by the dead replica, resumed after
	// its first event: the result comes again, from Redis.
	req, _ := http.NewRequest(http.MethodGet, base+"/mcp", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", firstID)
	resp, err := (&http.Client{Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	replayed := readEvents(resp)
	if resp.StatusCode != 200 || len(replayed) == 0 || !strings.Contains(replayed[len(replayed)-1].data, `"id":2`) {
		t.Errorf("resuming the dead replica's stream after %s: status %d, events %+v; want the result of call 2 again",
			firstID, resp.StatusCode, replayed)
	}
}
