package spec

// Stdio configures serving over stdio, the default of `mcpgen serve`.
type Stdio struct {
	// MaxMessage caps the size of one message from the client (one line);
	// a longer line is skipped without being held in memory and refused
	// with a JSON-RPC error. Defaults to 4MiB.
	MaxMessage Size `yaml:"max_message,omitempty"`
	// ShutdownTimeout is how long calls in flight may run after the client
	// closes its end or mcpgen gets SIGTERM or SIGINT; then they are
	// canceled (processes killed, queries canceled) and mcpgen exits.
	// Defaults to 10s.
	ShutdownTimeout Duration `yaml:"shutdown_timeout,omitempty"`
}
