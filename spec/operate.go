package spec

// Concurrency caps the calls running at once on a tool or a backend: a
// bulkhead, so that one slow tool or backend cannot hold every worker. A
// call beyond the cap waits for a free slot for up to `wait`; then it gets
// a tool error naming the limit, and nothing runs.
type Concurrency struct {
	// Max is the number of calls that may run at once.
	Max int `yaml:"max" jsonschema:"required,minimum=1"`
	// Wait is how long a call beyond the cap waits for a free slot before
	// it is refused. Defaults to 0: refused at once.
	Wait Duration `yaml:"wait,omitempty"`
}

// Cache keeps the results of a read-only tool for a while: a call with the
// same arguments within `ttl` gets the kept result and runs nothing. Only
// successful results are kept. Results are kept in the memory of the server
// process, within `server.cache.max_bytes`, or in Redis, shared by every
// replica, with `server.state.redis`.
type Cache struct {
	// TTL is how long a result is kept, e.g. 30s or 5m.
	TTL Duration `yaml:"ttl" jsonschema:"required"`
	// PerCaller keeps one result per authenticated caller, so that a result
	// that depends on who asks is never served to someone else. Defaults to
	// true when the server authenticates callers (`server.http.auth`) and
	// false otherwise. A tool whose expressions read `auth` is always
	// cached per caller; setting false there is an error.
	PerCaller *bool `yaml:"per_caller,omitempty"`
}

// CacheServer bounds the results kept by tools' `cache`.
type CacheServer struct {
	// MaxBytes bounds the size of all kept results together; the least
	// recently used go first. Defaults to 64MiB.
	MaxBytes Size `yaml:"max_bytes,omitempty"`
}

// Readiness makes a named backend part of the server's readiness
// (`/readyz`): while it is unreachable, /readyz answers 503, so that a load
// balancer or Kubernetes sends traffic to other replicas. Liveness
// (`/healthz`) never depends on backends. A backend is checked by its kind:
// a database is pinged, an HTTP API is sent a HEAD request to its
// base_url (any answer, even 404, means reachable).
type Readiness struct {
	// Required makes /readyz report not ready while this backend is
	// unreachable. Without it the backend is probed and reported in
	// /readyz's detail only.
	Required bool `yaml:"required,omitempty"`
	// ProbeInterval is how often the backend is checked. Defaults to 10s.
	ProbeInterval Duration `yaml:"probe_interval,omitempty"`
	// Timeout bounds one check. Defaults to 2s.
	Timeout Duration `yaml:"timeout,omitempty"`
}

// State says where a server keeps what its replicas must share when it runs
// as several processes behind a load balancer: rate-limit buckets, cached
// results, tasks, the events of resumable streams and the sessions of
// clients up to 2025-11-25. Without it each process keeps them in its own
// memory, which is right for one replica.
type State struct {
	// Redis keeps the shared state in Redis. When Redis cannot be reached,
	// each replica goes on serving with state of its own (rate limits per
	// replica, its own cache, tasks and sessions) and says so in its logs,
	// in the metric mcpgen_shared_state_up and in /readyz's detail; it goes
	// back to Redis once Redis answers again.
	Redis *RedisState `yaml:"redis,omitempty"`
}

// RedisState is the Redis server that replicas share state through.
type RedisState struct {
	// Addr is the Redis server's host:port, e.g. redis:6379.
	Addr string `yaml:"addr" jsonschema:"required"`
	// Username names the Redis ACL user (Redis 6 and later); leave it out
	// with a password set by `requirepass`.
	Username string `yaml:"username,omitempty"`
	// Password authenticates to Redis; write it as ${VAR}.
	Password string `yaml:"password,omitempty"`
	// DB is the Redis database number. Defaults to 0.
	DB int `yaml:"db,omitempty" jsonschema:"minimum=0"`
	// Prefix starts every key mcpgen writes, so that several servers can
	// share one Redis. Defaults to "mcpgen:" followed by server.name and
	// ":". Replicas of one server must use the same prefix.
	Prefix string `yaml:"prefix,omitempty"`
	// TLS connects to Redis over TLS, checking its certificate against the
	// system's roots.
	TLS bool `yaml:"tls,omitempty"`
	// Timeout bounds each Redis operation; an operation that takes longer
	// counts as Redis being down. Defaults to 500ms.
	Timeout Duration `yaml:"timeout,omitempty"`
	// SessionTTL is how long a session's state is kept in Redis after its
	// last request, and a stream's events after its last event. Defaults to
	// 1h.
	SessionTTL Duration `yaml:"session_ttl,omitempty"`
}
