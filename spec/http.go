package spec

// HTTP configures serving over Streamable HTTP. The MCP endpoint is /mcp, the
// legacy HTTP+SSE endpoint (for 2024-11-05 clients, stateful mode only) is
// /sse, and /healthz answers 200 while the server is up.
type HTTP struct {
	// Addr is the address to listen on, host:port. When set, `mcpgen serve`
	// serves HTTP rather than stdio; `mcpgen serve --http ADDR` overrides it
	// (127.0.0.1:8080 when neither says). Binding anything but a loopback
	// address exposes the server: list the names clients use in
	// `allowed_hosts` too.
	Addr string `yaml:"addr,omitempty"`
	// AllowedHosts are extra Host header values accepted, besides the
	// loopback names (localhost, 127.0.0.1, ::1): a host name, matching any
	// port, or host:port; "*" accepts any host. Requests with another Host
	// get 403 before anything else runs (DNS rebinding protection).
	AllowedHosts []string `yaml:"allowed_hosts,omitempty"`
	// AllowedOrigins are extra Origin header values accepted from browsers,
	// besides loopback origins: scheme://host[:port], or "*" for any.
	// Requests without an Origin header (non-browser clients) are accepted;
	// requests with another Origin get 403.
	AllowedOrigins []string `yaml:"allowed_origins,omitempty"`
	// Stateless serves every request on its own without sessions, so any
	// replica behind a plain load balancer can answer it. Without it, clients
	// up to 2025-11-25 get sessions and 2026-07-28 clients are served
	// sessionless on the same endpoint. Stateless, clients up to 2025-11-25
	// lose what needs a session: steps that ask the client (sample, elicit,
	// confirm, roots), subscriptions and resumable streams; 2026-07-28
	// clients lose nothing.
	Stateless bool `yaml:"stateless,omitempty"`
	// SessionTimeout closes a session that has received no request for this
	// long. Defaults to 30m.
	SessionTimeout Duration `yaml:"session_timeout,omitempty"`
	// MaxSessions caps the live sessions; a new session beyond it gets 503.
	// Defaults to 1000.
	MaxSessions int `yaml:"max_sessions,omitempty"`
	// MaxBody caps the size of one request body; a larger one gets 413.
	// Defaults to 4MiB.
	MaxBody Size `yaml:"max_body,omitempty"`
	// ShutdownTimeout is how long calls in flight may run after SIGTERM or
	// SIGINT before they are canceled. Defaults to 10s.
	ShutdownTimeout Duration `yaml:"shutdown_timeout,omitempty"`
	// MaxSessionsPerClient caps the live sessions opened from one client
	// address, so that one client flooding `initialize` cannot take every
	// session; a new session beyond it gets 429. Behind a reverse proxy
	// every client has the proxy's address: raise it, or -1 for no cap.
	// Defaults to 100.
	MaxSessionsPerClient int `yaml:"max_sessions_per_client,omitempty"`
	// MaxCalls caps the calls (tools/call, resources/read, prompts/get,
	// completion/complete) running at once over all sessions; a call
	// beyond it gets a JSON-RPC error saying the server is busy. -1 for
	// no cap. Defaults to 512.
	MaxCalls int `yaml:"max_calls,omitempty"`
	// MaxCallsPerBackend caps the tool calls running at once on each
	// backend (a named entry of `backends`, or each handler kind for tools
	// configured inline), so that one slow backend cannot hold every call.
	// -1 for no cap. Defaults to 128.
	MaxCallsPerBackend int `yaml:"max_calls_per_backend,omitempty"`
	// BackendQueue caps the calls waiting for a slot on one backend when
	// max_calls_per_backend are running; beyond it a call is refused at
	// once, saying when to retry. -1: no call waits. Defaults to 256.
	BackendQueue int `yaml:"backend_queue,omitempty"`
	// BackendQueueWait is how long a call waits for a slot on its backend
	// before it is refused, saying when to retry. Defaults to 2s.
	BackendQueueWait Duration `yaml:"backend_queue_wait,omitempty"`
	// MaxConnections caps the open client connections. At the cap, the
	// connection idle the longest (kept alive between requests) is closed
	// to make room for a new client; a new connection is refused only when
	// every open one is busy. -1 for no cap. Defaults to 2048.
	MaxConnections int `yaml:"max_connections,omitempty"`
	// MaxConnectionsPerClient caps the open connections from one client
	// address, so that one source holds at most 1/32 of the default total;
	// connections from `trusted_proxies` are not capped. -1 for no cap.
	// Defaults to 64.
	MaxConnectionsPerClient int `yaml:"max_connections_per_client,omitempty"`
	// TrustedProxies are the addresses (IPs or CIDR prefixes, e.g.
	// 10.0.0.0/8) of the load balancers or reverse proxies in front of
	// mcpgen: their connections are not capped per client, and for their
	// requests the client is the address they name last in
	// X-Forwarded-For. A request from anywhere else is its connection's
	// address, whatever headers it sends.
	TrustedProxies []string `yaml:"trusted_proxies,omitempty"`
	// ReadHeaderTimeout is how long a client may take to send a request's
	// headers. Defaults to 10s.
	ReadHeaderTimeout Duration `yaml:"read_header_timeout,omitempty"`
	// ReadTimeout is how long a client may take to send a request's body.
	// Defaults to 30s.
	ReadTimeout Duration `yaml:"read_timeout,omitempty"`
	// WriteTimeout is how long one write of a response (a JSON reply or one
	// stream event) may take before a client that does not read is cut
	// off. It does not limit how long a call or a stream lasts. Defaults to
	// 30s.
	WriteTimeout Duration `yaml:"write_timeout,omitempty"`
	// IdleTimeout closes a kept-alive connection with no request for this
	// long. Defaults to 2m.
	IdleTimeout Duration `yaml:"idle_timeout,omitempty"`
	// Auth requires every request to /mcp to be authenticated, with OAuth
	// access tokens or API keys. Without it anyone who reaches the port can
	// call every tool: `mcpgen serve` warns when such a server listens on
	// anything but loopback. Handler expressions see the authenticated
	// caller as `auth`.
	Auth *Auth `yaml:"auth,omitempty"`
	// TLS serves HTTPS with the given certificate and key.
	TLS *TLS `yaml:"tls,omitempty"`
}
