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
	// replica behind a plain load balancer can answer it. Sampling,
	// elicitation (and so `confirm`), subscriptions and resumable streams
	// need sessions and do not work stateless.
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
	// Auth authenticates clients; see its fields. Handler expressions see
	// the authenticated caller as `auth`.
	Auth *Auth `yaml:"auth,omitempty"`
}
