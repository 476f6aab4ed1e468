package redisstate

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/redis/go-redis/v9"
)

// redisAddr returns the test Redis, skipping without one.
func redisAddr(t *testing.T) string {
	t.Helper()
	addr := os.Getenv("MCPGEN_TEST_REDIS_ADDR")
	if addr == "" {
		t.Skip("MCPGEN_TEST_REDIS_ADDR is not set")
	}
	return addr
}

// prefix is a key prefix no other test uses; the test's keys are deleted
// when it ends (some, like the task counter, never expire).
func prefix(t *testing.T) string {
	p := "scale-test:" + t.Name() + ":" + rand.Text()[:8] + ":"
	if addr := os.Getenv("MCPGEN_TEST_REDIS_ADDR"); addr != "" {
		t.Cleanup(func() {
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			defer rdb.Close()
			ctx := context.Background()
			for it := rdb.Scan(ctx, 0, p+"*", 100).Iterator(); it.Next(ctx); {
				rdb.Del(ctx, it.Val())
			}
		})
	}
	return p
}

// replica returns a State at addr with prefix p, closed with the test.
func replica(t *testing.T, addr, p string, logs io.Writer) *State {
	t.Helper()
	if logs == nil {
		logs = io.Discard
	}
	s := New(Options{Addr: addr, Prefix: p, Timeout: 2 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// syncBuffer is a log sink safe for the state's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// proxy forwards a loopback port to target until stopped; stopping it
// closes the listener and every connection, as a dead Redis would.
type proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, listen, target string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, u)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(u, c); _ = u.Close() }()
			go func() { _, _ = io.Copy(c, u); _ = c.Close() }()
		}
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) stop() {
	_ = p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRedisLostAndFound: a replica whose Redis goes away keeps answering
// from its own memory, says so in its log, its metrics and its readiness
// check, and goes back to Redis when Redis answers again.
func TestRedisLostAndFound(t *testing.T) {
	target := redisAddr(t)
	px := startProxy(t, "127.0.0.1:0", target)
	logs := &syncBuffer{}
	s := replica(t, px.addr(), prefix(t), logs)
	reg := prometheus.NewRegistry()
	s.Register(reg)
	ctx := context.Background()
	c := s.Cache(nil)
	c.Set(ctx, "k", []byte("shared"), time.Minute)
	if err := s.Check(ctx); err != nil || !s.Up() {
		t.Fatalf("with Redis: Check = %v, Up = %v", err, s.Up())
	}
	if got := testutil.ToFloat64(s.upGauge); got != 1 {
		t.Errorf("mcpgen_shared_state_up = %v with Redis, want 1", got)
	}

	px.stop()
	lim := s.Limiter(nil)
	if wait, err := lim.Allow(ctx, "caller", limit(0.001, 1)); err != nil || wait != 0 {
		t.Fatalf("first call with Redis down: wait %v, err %v; want it allowed from memory", wait, err)
	}
	if wait, _ := lim.Allow(ctx, "caller", limit(0.001, 1)); wait == 0 {
		t.Error("second call with Redis down was allowed: the replica's own bucket should hold")
	}
	if _, ok := c.Get(ctx, "k"); ok {
		t.Error("a value kept in Redis was found with Redis down")
	}
	c.Set(ctx, "local", []byte("mine"), time.Minute)
	if v, ok := c.Get(ctx, "local"); !ok || string(v) != "mine" {
		t.Errorf("the fallback cache lost a value: %q, %v", v, ok)
	}
	if s.Up() || testutil.ToFloat64(s.upGauge) != 0 {
		t.Error("the state still says Redis is up")
	}
	if n := testutil.ToFloat64(s.fallbacks.WithLabelValues("rate_limit")); n < 2 {
		t.Errorf("rate_limit fallbacks = %v, want at least 2", n)
	}
	err := s.Check(ctx)
	if err == nil || !strings.Contains(err.Error(), "per-replica state") {
		t.Errorf("Check with Redis down = %v; want it to say the replica serves with per-replica state", err)
	}
	if n := strings.Count(logs.String(), "redis unreachable"); n != 1 {
		t.Errorf("the log says Redis is unreachable %d times, want once:\n%s", n, logs)
	}

	startProxy(t, px.addr(), target) // Redis is back, at the same address
	waitFor(t, "the state to use Redis again", s.Up)
	if v, ok := c.Get(ctx, "k"); !ok || string(v) != "shared" {
		t.Errorf("after Redis came back: Get = %q, %v; want the shared value", v, ok)
	}
	if !strings.Contains(logs.String(), "redis reachable again") {
		t.Errorf("the log does not say Redis is back:\n%s", logs)
	}
}

// TestStartsWithRedisDown: a replica whose Redis is not there at all
// serves from memory from the first call.
func TestStartsWithRedisDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // a closed port
	s := replica(t, addr, "x:", nil)
	ctx := context.Background()
	if wait, err := s.Limiter(nil).Allow(ctx, "k", limit(1, 1)); err != nil || wait != 0 {
		t.Fatalf("Allow = %v, %v; want allowed from memory", wait, err)
	}
	if s.Up() {
		t.Error("Up with nothing listening")
	}
	ts := s.Tasks(nil)
	tk := newTask("owner")
	if err := ts.Create(ctx, tk, 0); err != nil {
		t.Fatalf("Create with Redis down: %v", err)
	}
	if _, err := ts.Get(ctx, tk.ID); err != nil {
		t.Errorf("Get of a task created with Redis down: %v", err)
	}
}
