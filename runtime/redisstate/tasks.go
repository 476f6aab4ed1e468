package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/redis/go-redis/v9"
)

// createTask reserves a task's place in its owner's index, atomically:
// it drops the owner's expired tasks from the index, refuses when the
// owner holds max tasks (max ≤ 0: no limit), else numbers the task and
// indexes it by number (KEYS[1]) and by expiry (KEYS[2]). It returns the
// number, or -1 when refused.
var createTask = redis.NewScript(`
local now, max, id, exp, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  redis.call('ZREM', KEYS[1], old)
  redis.call('ZREM', KEYS[2], old)
end
if max > 0 and redis.call('ZCARD', KEYS[2]) >= max then return -1 end
local seq = redis.call('INCR', KEYS[3])
redis.call('ZADD', KEYS[1], seq, id)
redis.call('ZADD', KEYS[2], exp, id)
for _, k in ipairs({KEYS[1], KEYS[2]}) do
  if redis.call('PTTL', k) < ttl then redis.call('PEXPIRE', k, ttl) end
end
return seq
`)

// Tasks is a task.Store in Redis: any replica answers tasks/get, list and
// cancel for a task another replica runs. Each task is one JSON value
// expiring with the task; an owner's tasks are indexed in sorted sets.
// While Redis is down, new tasks go to the fallback and tasks kept in
// Redis cannot be seen.
type Tasks struct {
	s        *State
	fallback task.Store
	now      func() time.Time
}

// Tasks returns the task store of the shared state; fallback keeps tasks
// while Redis is down (a task.Memory when nil).
func (s *State) Tasks(fallback task.Store) *Tasks {
	if fallback == nil {
		fallback = task.NewMemory()
	}
	return &Tasks{s: s, fallback: fallback, now: time.Now}
}

// errWork wraps an error of an Update's function, which is the caller's
// answer, not Redis failing.
type errWork struct{ err error }

func (e errWork) Error() string { return e.err.Error() }

// Create implements task.Store.
func (ts *Tasks) Create(ctx context.Context, t *task.Task, limit int) error {
	if !ts.s.use("tasks") {
		return ts.fallback.Create(ctx, t, limit)
	}
	octx, cancel := ts.s.op(ctx)
	defer cancel()
	ttl := time.Until(t.ExpiresAt())
	if ttl <= 0 {
		return nil // expired already: as good as gone
	}
	keys := []string{ts.s.key("tasks", t.Owner), ts.s.key("taskexp", t.Owner), ts.s.key("taskseq")}
	seq, err := createTask.Run(octx, ts.s.rdb, keys, ts.now().UnixMilli(), limit, t.ID,
		t.ExpiresAt().UnixMilli(), ttl.Milliseconds()+1).Int64()
	if ts.s.failed("tasks", err) {
		return ts.fallback.Create(ctx, t, limit)
	}
	if seq < 0 {
		return task.ErrLimit
	}
	t.Seq = seq
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := ts.s.rdb.Set(octx, ts.s.key("task", t.ID), b, max(ttl, time.Millisecond)).Err(); ts.s.failed("tasks", err) {
		return ts.fallback.Create(ctx, t, limit)
	}
	return nil
}

// decode reads a stored task; nil when it has expired.
func (ts *Tasks) decode(b []byte) (*task.Task, error) {
	var t task.Task
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	if !ts.now().Before(t.ExpiresAt()) {
		return nil, nil
	}
	return &t, nil
}

// Get implements task.Store.
func (ts *Tasks) Get(ctx context.Context, id string) (*task.Task, error) {
	if !ts.s.use("tasks") {
		return ts.fallback.Get(ctx, id)
	}
	octx, cancel := ts.s.op(ctx)
	defer cancel()
	b, err := ts.s.rdb.Get(octx, ts.s.key("task", id)).Bytes()
	if ts.s.failed("tasks", err) {
		return ts.fallback.Get(ctx, id)
	}
	if err != nil {
		return ts.fallback.Get(ctx, id) // created while Redis was down, perhaps
	}
	t, err := ts.decode(b)
	if err != nil || t == nil {
		return nil, cmpErr(err, task.ErrNotFound)
	}
	return t, nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// Update implements task.Store: optimistic, retried when another replica
// changed the task meanwhile.
func (ts *Tasks) Update(ctx context.Context, id string, fn func(*task.Task) error) (*task.Task, error) {
	if !ts.s.use("tasks") {
		return ts.fallback.Update(ctx, id, fn)
	}
	octx, cancel := ts.s.op(ctx)
	defer cancel()
	k := ts.s.key("task", id)
	var out *task.Task
	txf := func(tx *redis.Tx) error {
		b, err := tx.Get(octx, k).Bytes()
		if err != nil {
			return err
		}
		t, err := ts.decode(b)
		if err != nil || t == nil {
			return errWork{cmpErr(err, task.ErrNotFound)}
		}
		if err := fn(t); err != nil {
			return errWork{err}
		}
		nb, _ := json.Marshal(t) // a Task always marshals
		_, err = tx.TxPipelined(octx, func(p redis.Pipeliner) error {
			p.SetArgs(octx, k, nb, redis.SetArgs{KeepTTL: true})
			return nil
		})
		out = t
		return err
	}
	for range 16 {
		err := ts.s.rdb.Watch(octx, txf, k)
		var we errWork
		switch {
		case err == nil:
			return out, nil
		case errors.As(err, &we):
			return nil, we.err
		case errors.Is(err, redis.TxFailedErr):
			continue
		case errors.Is(err, redis.Nil):
			return ts.fallback.Update(ctx, id, fn)
		case ts.s.failed("tasks", err):
			return ts.fallback.Update(ctx, id, fn)
		}
	}
	return nil, errors.New("task changed by others too often; try again")
}

// List implements task.Store.
func (ts *Tasks) List(ctx context.Context, owner string, after int64, n int) ([]*task.Task, error) {
	if !ts.s.use("tasks") {
		return ts.fallback.List(ctx, owner, after, n)
	}
	octx, cancel := ts.s.op(ctx)
	defer cancel()
	var out []*task.Task
	for len(out) < n {
		zs, err := ts.s.rdb.ZRangeByScoreWithScores(octx, ts.s.key("tasks", owner),
			&redis.ZRangeBy{Min: "(" + strconv.FormatInt(after, 10), Max: "+inf", Count: int64(n)}).Result()
		if ts.s.failed("tasks", err) {
			return ts.fallback.List(ctx, owner, after, n)
		}
		if len(zs) == 0 {
			break
		}
		keys := make([]string, len(zs))
		for i, z := range zs {
			keys[i] = ts.s.key("task", z.Member.(string))
		}
		vals, err := ts.s.rdb.MGet(octx, keys...).Result()
		if ts.s.failed("tasks", err) {
			return ts.fallback.List(ctx, owner, after, n)
		}
		for _, v := range vals {
			if str, ok := v.(string); ok { // else expired
				if t, err := ts.decode([]byte(str)); err == nil && t != nil && len(out) < n {
					out = append(out, t)
				}
			}
		}
		after = int64(zs[len(zs)-1].Score)
		if len(zs) < n {
			break
		}
	}
	return out, nil
}

// Sweep implements task.Store: Redis expires tasks itself, and Create
// drops them from the indexes; only the fallback needs sweeping.
func (ts *Tasks) Sweep(ctx context.Context, now time.Time) (int, error) {
	return ts.fallback.Sweep(ctx, now)
}

var _ task.Store = (*Tasks)(nil)
