// Package redisstate keeps the state that replicas of one mcpgen server
// share in Redis: rate-limit buckets, cached results, tasks, the events of
// resumable streams and the sessions of stateful clients. Each store
// implements the interface of its in-memory counterpart (ratelimit.Limiter,
// cache.Store, task.Store, mcp.EventStore) and holds such a counterpart as
// its fallback: while Redis cannot be reached, the replica serves from its
// own memory, says so once in the log, and reports it in the gauge
// mcpgen_shared_state_up and in /readyz; a background check brings Redis
// back into use as soon as it answers.
package redisstate

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// Defaults of Options.
const (
	DefaultTimeout    = 500 * time.Millisecond
	DefaultSessionTTL = time.Hour
	// checkEvery is how often a replica that lost Redis checks it again.
	checkEvery = time.Second
)

// quietClient silences the client library's own log, which would write a
// line to stderr for every failed connection while Redis is down: the
// State logs the loss and the return of Redis once each instead.
var quietClient sync.Once

type discardLogger struct{}

func (discardLogger) Printf(context.Context, string, ...any) {}

// Options say which Redis to use and how.
type Options struct {
	Addr, Username, Password string
	DB                       int
	TLS                      bool
	// Prefix starts every key; replicas of one server share it.
	Prefix string
	// Timeout bounds each operation; DefaultTimeout when zero.
	Timeout time.Duration
	// SessionTTL is how long sessions are kept after their last request,
	// and streams' events after their last event; DefaultSessionTTL when
	// zero.
	SessionTTL time.Duration
	// Logger hears when Redis is lost and found again.
	Logger *slog.Logger
}

// State is one replica's connection to the shared state, and whether it
// is in use. Create it with New; Close it.
type State struct {
	opts   Options
	rdb    *redis.Client
	up     atomic.Bool
	logger *slog.Logger

	mu       sync.Mutex
	checking bool
	stop     chan struct{}
	closed   sync.Once

	sessions *Sessions

	upGauge   prometheus.GaugeFunc
	fallbacks *prometheus.CounterVec
}

// New returns the state kept in the Redis of opts. It does not wait for
// Redis: a replica starts, and serves, with Redis down. Call Check to
// know at once.
func New(opts Options) *State {
	quietClient.Do(func() { redis.SetLogger(discardLogger{}) })
	opts.Timeout = cmp.Or(opts.Timeout, DefaultTimeout)
	opts.SessionTTL = cmp.Or(opts.SessionTTL, DefaultSessionTTL)
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ro := &redis.Options{Addr: opts.Addr, Username: opts.Username, Password: opts.Password, DB: opts.DB,
		DialTimeout: opts.Timeout, ReadTimeout: opts.Timeout, WriteTimeout: opts.Timeout,
		MaxRetries: -1, ContextTimeoutEnabled: true}
	if opts.TLS {
		ro.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	s := &State{opts: opts, rdb: redis.NewClient(ro), logger: opts.Logger, stop: make(chan struct{})}
	s.up.Store(true) // until an operation says otherwise
	s.sessions = &Sessions{s: s}
	s.upGauge = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "mcpgen_shared_state_up",
		Help: "1 while the replica keeps its state in Redis, shared with the other replicas; 0 while it falls back to its own memory."},
		func() float64 {
			if s.up.Load() {
				return 1
			}
			return 0
		})
	s.fallbacks = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "mcpgen_shared_state_fallbacks_total",
		Help: "Operations on the shared state served from the replica's own memory because Redis could not be reached, by store."},
		[]string{"store"})
	return s
}

// Register adds the state's metrics to reg, replacing those of an earlier
// State (a reload).
func (s *State) Register(reg prometheus.Registerer) {
	for _, c := range []prometheus.Collector{s.upGauge, s.fallbacks} {
		reg.Unregister(c)
		_ = reg.Register(c)
	}
}

// Up reports whether the shared state is in use.
func (s *State) Up() bool { return s.up.Load() }

// Check pings Redis and returns why it cannot be used, or nil; it brings
// Redis back into use when it answers. It is the readiness probe's check.
func (s *State) Check(ctx context.Context) error {
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		s.lost(err)
		return errors.New("redis unreachable, serving with per-replica state: " + err.Error())
	}
	s.found()
	return nil
}

// key returns the key of parts under the prefix.
func (s *State) key(parts ...string) string {
	k := s.opts.Prefix
	for i, p := range parts {
		if i > 0 {
			k += ":"
		}
		k += p
	}
	return k
}

// op bounds one operation by the timeout.
func (s *State) op(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), s.opts.Timeout)
}

// failed reports whether err means Redis could not be used: it is then
// marked down, and the caller falls back. redis.Nil (no such key) is an
// answer, not a failure.
func (s *State) failed(store string, err error) bool {
	if err == nil || errors.Is(err, redis.Nil) {
		return false
	}
	s.lost(err)
	s.fallbacks.WithLabelValues(store).Inc()
	return true
}

// use reports whether to try Redis for an operation of store; when not,
// the operation is counted as a fallback.
func (s *State) use(store string) bool {
	if s.up.Load() {
		return true
	}
	s.fallbacks.WithLabelValues(store).Inc()
	return false
}

// lost marks Redis down, logs it once, and starts checking for its return.
func (s *State) lost(err error) {
	if s.up.Swap(false) {
		s.logger.Warn("shared state: redis unreachable; serving with per-replica state (rate limits, cache, tasks and sessions are this replica's own) until it answers",
			"addr", s.opts.Addr, "error", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checking {
		return
	}
	s.checking = true
	go s.recheck()
}

// found marks Redis up again, logging it once.
func (s *State) found() {
	if !s.up.Swap(true) {
		s.logger.Info("shared state: redis reachable again; state is shared by the replicas", "addr", s.opts.Addr)
	}
}

// recheck pings Redis every checkEvery until it answers or the state is
// closed.
func (s *State) recheck() {
	t := time.NewTicker(checkEvery)
	defer t.Stop()
	defer func() {
		s.mu.Lock()
		s.checking = false
		s.mu.Unlock()
	}()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
		}
		ctx, cancel := s.op(context.Background())
		err := s.rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			s.found()
			return
		}
	}
}

// Close stops the checks and closes the connections.
func (s *State) Close() error {
	var err error
	s.closed.Do(func() {
		close(s.stop)
		err = s.rdb.Close()
	})
	return err
}
