package spec

// CacheHint is a caching hint sent with list and read results to 2026-07-28
// clients (`ttlMs` and `cacheScope`): how long a client may reuse a result,
// and whether a shared cache may hold it.
type CacheHint struct {
	// TTL is how long the result may be reused, e.g. 5m. Defaults to 0: the
	// client should ask again each time.
	TTL Duration `yaml:"ttl,omitempty"`
	// Scope is public (the result is the same for every caller; shared
	// caches may keep it) or private (only the caller that asked may reuse
	// it). Defaults to public; lists served over authenticated HTTP whose
	// entries need scopes are always private.
	Scope string `yaml:"scope,omitempty" jsonschema:"enum=public,enum=private"`
}

// RequestState configures how 2026-07-28 clients are asked for input in
// several rounds (elicit, sample, confirm and roots steps): the server
// answers with the questions and a signed `requestState`, and the client
// calls again with the answers and that state.
type RequestState struct {
	// Key signs the state (HMAC-SHA256): at least 32 bytes, the same on
	// every replica, e.g. ${MCPGEN_STATE_KEY}. Without it, each process
	// makes a random key: states do not survive a restart and cannot move
	// between replicas.
	Key string `yaml:"key,omitempty"`
	// TTL is how long a state stays valid after it was issued. Defaults to
	// 10m.
	TTL Duration `yaml:"ttl,omitempty"`
}

// RootsStep asks the client for its roots (roots/list): the directories or
// locations the user lets the server work in.
type RootsStep struct {
	// As names the result: `.steps.AS.roots` (each with `uri` and `name`)
	// and `.steps.AS.paths`, the local paths of the file:// roots, e.g. to
	// confine a file tool with `steps.AS.paths`.
	As string `yaml:"as,omitempty"`
	// IfSupported skips the step, leaving its result absent, when the
	// client does not support roots, instead of refusing the call.
	IfSupported bool `yaml:"if_supported,omitempty"`
}
