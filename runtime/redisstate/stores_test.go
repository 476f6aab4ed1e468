package redisstate

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"github.com/mcpgen/mcpgen/runtime/task"
)

func limit(rate float64, burst int) ratelimit.Limit { return ratelimit.Limit{Rate: rate, Burst: burst} }

func newTask(owner string) *task.Task {
	now := time.Now().UTC()
	return &task.Task{ID: rand.Text(), Owner: owner, Status: task.Working, CreatedAt: now, UpdatedAt: now,
		TTL: time.Hour, Method: "tools/call"}
}

// twoReplicas returns two States sharing one Redis and prefix, as two
// replicas of one server do.
func twoReplicas(t *testing.T) (a, b *State) {
	addr, p := redisAddr(t), prefix(t)
	return replica(t, addr, p, nil), replica(t, addr, p, nil)
}

// TestLimiterIsShared: a bucket of 5 is 5 calls across replicas, not 5
// each; the refused call learns how long to wait.
func TestLimiterIsShared(t *testing.T) {
	a, b := twoReplicas(t)
	la, lb := a.Limiter(nil), b.Limiter(nil)
	ctx := context.Background()
	l := limit(0.01, 5) // a token every 100s: none comes back during the test
	allowed := 0
	var lastWait time.Duration
	for i := range 12 {
		lim := la
		if i%2 == 1 {
			lim = lb
		}
		wait, err := lim.Allow(ctx, "tool\x00caller", l)
		if err != nil {
			t.Fatal(err)
		}
		if wait == 0 {
			allowed++
		} else {
			lastWait = wait
		}
	}
	if allowed != 5 {
		t.Errorf("allowed %d calls over two replicas, want the burst of 5", allowed)
	}
	if lastWait < 90*time.Second || lastWait > 101*time.Second {
		t.Errorf("a refused call is told to wait %v, want about 100s", lastWait)
	}
	if wait, _ := la.Allow(ctx, "tool\x00other", l); wait != 0 {
		t.Error("another caller's bucket was used up too")
	}
	if !a.Up() || !b.Up() {
		t.Error("a replica fell back with Redis up")
	}
}

// TestCacheIsShared: a result one replica keeps is found by the other.
func TestCacheIsShared(t *testing.T) {
	a, b := twoReplicas(t)
	ctx := context.Background()
	a.Cache(nil).Set(ctx, "k", []byte(`{"content":[]}`), time.Minute)
	if v, ok := b.Cache(nil).Get(ctx, "k"); !ok || string(v) != `{"content":[]}` {
		t.Errorf("Get on the other replica = %q, %v", v, ok)
	}
	if _, ok := b.Cache(nil).Get(ctx, "missing"); ok {
		t.Error("found a key never set")
	}
	if !b.Up() {
		t.Error("a missing key counted as Redis failing")
	}
}

// TestTasksAreShared: a task one replica creates is seen, changed and
// listed by the other; the per-owner limit counts across replicas.
func TestTasksAreShared(t *testing.T) {
	a, b := twoReplicas(t)
	ta, tb := a.Tasks(nil), b.Tasks(nil)
	ctx := context.Background()
	first, second := newTask("alice"), newTask("alice")
	for _, tk := range []*task.Task{first, second} {
		if err := ta.Create(ctx, tk, 2); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.Create(ctx, newTask("alice"), 2); !errors.Is(err, task.ErrLimit) {
		t.Errorf("a third task of an owner limited to 2: %v, want ErrLimit", err)
	}
	got, err := tb.Get(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, got); diff != "" {
		t.Errorf("task read on the other replica (-want +got):\n%s", diff)
	}
	upd, err := tb.Update(ctx, first.ID, func(tk *task.Task) error { tk.Status = task.Completed; return nil })
	if err != nil || upd.Status != task.Completed {
		t.Fatalf("Update = %v, %v", upd, err)
	}
	if got, _ := ta.Get(ctx, first.ID); got.Status != task.Completed {
		t.Errorf("status seen by the first replica = %s, want completed", got.Status)
	}
	refuse := errors.New("no")
	if _, err := ta.Update(ctx, first.ID, func(*task.Task) error { return refuse }); !errors.Is(err, refuse) {
		t.Errorf("Update whose function fails = %v, want its error", err)
	}
	if _, err := ta.Get(ctx, "nope"); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("Get of an unknown task = %v, want ErrNotFound", err)
	}
	list, err := ta.List(ctx, "alice", first.Seq, 10)
	if err != nil || len(list) != 1 || list[0].ID != second.ID {
		t.Errorf("List after the first = %v, %v; want the second task only", list, err)
	}
	if !a.Up() || !b.Up() {
		t.Error("a replica fell back with Redis up")
	}
}

// TestEventsAreShared: a stream's events stored by one replica are
// replayed by the other, from any index.
func TestEventsAreShared(t *testing.T) {
	a, b := twoReplicas(t)
	ea, eb := a.Events(nil), b.Events(nil)
	ctx := context.Background()
	if err := ea.Open(ctx, "s1", "st"); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"e0", "e1", "e2"} {
		if err := ea.Append(ctx, "s1", "st", []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for d, err := range eb.After(ctx, "s1", "st", 0) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(d))
	}
	if diff := cmp.Diff([]string{"e1", "e2"}, got); diff != "" {
		t.Errorf("replayed after index 0 (-want +got):\n%s", diff)
	}
	for _, err := range eb.After(ctx, "s1", "unknown", -1) {
		if err == nil {
			t.Error("an unknown stream replayed without error")
		}
	}
	// A session closing on a replica (it stops) keeps the events for the
	// others; the client ending the session deletes them.
	_ = ea.SessionClosed(ctx, "s1")
	n := 0
	for range eb.After(ctx, "s1", "st", -1) {
		n++
	}
	if n != 3 {
		t.Errorf("after the session closed on a replica, %d events replay, want 3", n)
	}
	_ = b.Sessions().Delete(ctx, "s1")
	for _, err := range eb.After(ctx, "s1", "st", -1) {
		if err == nil {
			t.Error("events replay after the client ended the session")
		}
	}
}

// TestSessionsAreShared: a session's state and user stored by one replica
// are loaded by the other; an ended session is gone.
func TestSessionsAreShared(t *testing.T) {
	a, b := twoReplicas(t)
	ctx := context.Background()
	st := &mcp.ServerSessionState{InitializeParams: &mcp.InitializeParams{ProtocolVersion: "2025-11-25",
		ClientInfo: &mcp.Implementation{Name: "c", Version: "1"}}, LogLevel: "debug"}
	if err := a.Sessions().Store(ctx, "sid", "alice", st); err != nil {
		t.Fatal(err)
	}
	got, user, err := b.Sessions().Load(ctx, "sid")
	if err != nil || user != "alice" {
		t.Fatalf("Load = %v, %q, %v", got, user, err)
	}
	if diff := cmp.Diff(st, got); diff != "" {
		t.Errorf("state loaded on the other replica (-want +got):\n%s", diff)
	}
	_ = b.Sessions().Delete(ctx, "sid")
	if got, _, _ := a.Sessions().Load(ctx, "sid"); got != nil {
		t.Errorf("an ended session loads: %v", got)
	}
}

// TestTaskManagersShareTasks: a task running on one replica is seen and
// awaited from another, whose manager polls the shared store.
func TestTaskManagersShareTasks(t *testing.T) {
	a, b := twoReplicas(t)
	opts := task.Options{PollInterval: 20 * time.Millisecond}
	opts.Store = a.Tasks(nil)
	ma := task.NewManager(opts)
	opts.Store = b.Tasks(nil)
	mb := task.NewManager(opts)
	t.Cleanup(func() { _ = ma.Close(); _ = mb.Close() })
	release := make(chan struct{})
	work := func(ctx context.Context, _ *task.Handle) task.Outcome {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return task.Outcome{Result: []byte(`{"done":true}`)}
	}
	ctx := context.Background()
	started, err := ma.Start(ctx, "bob", "tools/call", nil, 0, work, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := mb.Get(ctx, "bob", started.ID); err != nil || got.Status != task.Working {
		t.Fatalf("the other replica sees %v, %v; want the task working", got, err)
	}
	close(release)
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	done, err := mb.Wait(wctx, "bob", started.ID)
	if err != nil || done.Status != task.Completed || string(done.Result) != `{"done":true}` {
		t.Errorf("waiting on the other replica: %+v, %v; want it completed with its result", done, err)
	}
}

// TestTouchKeepsASessionInUse: touching a session pushes its expiry back
// to SessionTTL from now, at most once a minute.
func TestTouchKeepsASessionInUse(t *testing.T) {
	addr := redisAddr(t)
	s := New(Options{Addr: addr, Prefix: prefix(t), SessionTTL: time.Hour})
	t.Cleanup(func() { _ = s.Close() })
	ctx := context.Background()
	st := &mcp.ServerSessionState{InitializeParams: &mcp.InitializeParams{ProtocolVersion: "2025-11-25"}}
	if err := s.Sessions().Store(ctx, "sid", "", st); err != nil {
		t.Fatal(err)
	}
	k := s.key("session", "sid")
	s.rdb.PExpire(ctx, k, time.Minute) // as if stored 59 minutes ago
	s.Sessions().Touch(ctx, "sid")
	if ttl := s.rdb.PTTL(ctx, k).Val(); ttl < 59*time.Minute {
		t.Errorf("after Touch the session expires in %v, want about an hour", ttl)
	}
	s.rdb.PExpire(ctx, k, time.Minute)
	s.Sessions().Touch(ctx, "sid") // within a minute of the last: nothing
	if ttl := s.rdb.PTTL(ctx, k).Val(); ttl > time.Minute {
		t.Errorf("a second Touch within a minute reached Redis (expiry %v)", ttl)
	}
}

// TestEventsAreBounded: a stream keeps its last events only; resuming from
// before them fails, as the protocol allows, and after them works.
func TestEventsAreBounded(t *testing.T) {
	a, b := twoReplicas(t)
	ea := a.Events(nil)
	ea.max = 3
	ctx := context.Background()
	_ = ea.Open(ctx, "s", "st")
	for _, d := range []string{"e0", "e1", "e2", "e3", "e4"} {
		if err := ea.Append(ctx, "s", "st", []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for d, err := range b.Events(nil).After(ctx, "s", "st", 1) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(d))
	}
	if diff := cmp.Diff([]string{"e2", "e3", "e4"}, got); diff != "" {
		t.Errorf("after index 1 (-want +got):\n%s", diff)
	}
	for _, err := range b.Events(nil).After(ctx, "s", "st", 0) {
		if !errors.Is(err, mcp.ErrEventsPurged) {
			t.Errorf("resuming after a dropped event: %v, want ErrEventsPurged", err)
		}
	}
}
