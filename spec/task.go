package spec

// Tasks configures how tools marked `task:` run as tasks: calls a client
// starts, then polls for their status and fetches their result later, and
// may cancel. Tasks are kept in the memory of the server process.
type Tasks struct {
	// TTL is how long a task and its result are kept from the moment it was
	// created; its work is stopped when the TTL runs out. A client may ask
	// for less, never for more. Defaults to 1h.
	TTL Duration `yaml:"ttl,omitempty"`
	// PollInterval is how often clients are asked to poll a task's status.
	// Defaults to 1s.
	PollInterval Duration `yaml:"poll_interval,omitempty"`
	// MaxPerCaller caps the tasks one caller holds at once, running or
	// finished and not yet expired; a call beyond it is refused. Callers
	// are told apart by their authenticated subject, else by their session.
	// Defaults to 100.
	MaxPerCaller int `yaml:"max_per_caller,omitempty" jsonschema:"minimum=1"`
}
