package spec

// Auth protects the HTTP endpoint: every request must carry
// `Authorization: Bearer CREDENTIAL`, where the credential is an OAuth
// access token (a JWT checked against the issuer's keys, or an opaque token
// checked by introspection) or one of the static API keys. A request
// without a valid credential gets 401, one without the scopes it needs
// gets 403 with `error="insufficient_scope"`. stdio is never authenticated.
//
// Handler expressions see the authenticated caller as `auth`:
// `auth.subject` (the token's subject, or key:NAME for an API key),
// `auth.client_id`, `auth.scopes` (a list of strings) and `auth.claims.NAME`.
// The caller's own token is never among them: no expression can send it
// anywhere. Over stdio nobody authenticates, so a tool that reads `auth`
// refuses every call there.
type Auth struct {
	// Resource is this server's canonical URL as clients reach it, e.g.
	// https://mcp.example.com/mcp (RFC 8707). It is the `resource` of the
	// protected resource metadata served at
	// /.well-known/oauth-protected-resource/mcp and the audience tokens must
	// be issued for. Required with `oauth`.
	Resource string `yaml:"resource,omitempty"`
	// RequiredScopes are needed by every request, whatever it does; items
	// (tools, resources, prompts) add their own `scopes`. They are also the
	// `scope` hint sent with a 401 and `scopes_supported` in the metadata.
	RequiredScopes []string `yaml:"required_scopes,omitempty"`
	// OnInsufficientScope says how a request for an item (tool, resource,
	// prompt) whose scopes the caller lacks is refused: `challenge` (the
	// default) answers HTTP 403 with `error="insufficient_scope"` and the
	// scopes needed, so that clients can ask for them (step-up);
	// `tool_error` answers within MCP instead (a tool error result, or an
	// error for resources and prompts), for clients that do not handle a
	// 403 in the middle of a session.
	OnInsufficientScope string `yaml:"on_insufficient_scope,omitempty" jsonschema:"enum=challenge,enum=tool_error"`
	// Implies declares a scope hierarchy: a caller granted a scope named
	// here is granted the scopes it lists as well, and the scopes those
	// imply, e.g. `{admin: [tools:write], tools:write: [tools:read]}`. The
	// implied scopes count everywhere: in every scope check, in list
	// results, and in `auth.scopes`.
	Implies map[string][]string `yaml:"implies,omitempty"`
	// OAuth accepts access tokens from one authorization server.
	OAuth *OAuth `yaml:"oauth,omitempty"`
	// APIKeys are static keys for simple set-ups. Take each key from the
	// environment (`key: ${ORDERS_KEY}`); keys are compared in constant time
	// and never logged.
	APIKeys []*APIKey `yaml:"api_keys,omitempty"`
	// Claims declares the types of the token claims expressions read, e.g.
	// `{email: string, groups: array}`, so that `auth.claims.email` is
	// type-checked when the config loads. A claim not declared here has
	// type any. A token whose claim has another type than declared is
	// treated as not having it.
	Claims map[string]ClaimType `yaml:"claims,omitempty"`
}

// OAuth checks access tokens issued by one OAuth 2.1 authorization server.
type OAuth struct {
	// Issuer is the authorization server's issuer identifier, e.g.
	// https://idp.example.com/realms/mcp. A token's `iss` must equal it. It
	// is also the authorization server named in the protected resource
	// metadata, and where the keys are discovered when `jwks_url` is not
	// given (RFC 8414 or OpenID Connect discovery).
	Issuer string `yaml:"issuer" jsonschema:"required"`
	// Audience a token's `aud` must contain. Defaults to `resource`, as RFC
	// 8707 says; a trailing slash is ignored.
	Audience string `yaml:"audience,omitempty"`
	// JWKSURL is where the issuer publishes its signing keys. Defaults to
	// the `jwks_uri` of the issuer's metadata. Keys are cached; a token
	// signed with an unknown key id refetches them, at most every
	// `jwks_refresh_limit`.
	JWKSURL string `yaml:"jwks_url,omitempty"`
	// Algorithms allowed for token signatures. Defaults to RS256 and
	// ES256. Only public-key algorithms are accepted: RS256/384/512,
	// PS256/384/512, ES256/384/512 and EdDSA (never `none`, never HS*).
	Algorithms []string `yaml:"algorithms,omitempty"`
	// Leeway tolerated on `exp` and `nbf` for clock differences. Defaults to
	// 30s; at most 5m.
	Leeway Duration `yaml:"leeway,omitempty"`
	// ScopesClaim is the claim listing a token's scopes: `scope` (a
	// space-separated string, RFC 9068; the default), `scp` or `permissions`
	// (strings or arrays).
	ScopesClaim string `yaml:"scopes_claim,omitempty"`
	// JWKSRefreshLimit is the shortest time between two key fetches caused
	// by tokens with an unknown key id. Defaults to 30s.
	JWKSRefreshLimit Duration `yaml:"jwks_refresh_limit,omitempty"`
	// Introspection checks opaque (non-JWT) tokens with the issuer's RFC
	// 7662 introspection endpoint. Without it, only JWTs are accepted.
	Introspection *Introspection `yaml:"introspection,omitempty"`
}

// Introspection asks the authorization server whether an opaque token is
// active (RFC 7662). Answers are cached until the token expires, at most
// `cache`.
type Introspection struct {
	// URL of the introspection endpoint.
	URL string `yaml:"url" jsonschema:"required"`
	// ClientID this server authenticates with (HTTP Basic), e.g.
	// ${INTROSPECTION_CLIENT_ID}.
	ClientID string `yaml:"client_id" jsonschema:"required"`
	// ClientSecret this server authenticates with, e.g.
	// ${INTROSPECTION_CLIENT_SECRET}.
	ClientSecret string `yaml:"client_secret" jsonschema:"required"`
	// Cache is the longest an answer is reused. Defaults to 5m; an active
	// token's answer never outlives its `exp`.
	Cache Duration `yaml:"cache,omitempty"`
}

// APIKey is one static key and what it may do.
type APIKey struct {
	// Name identifies the key in logs and audit lines (never the key
	// itself); the caller's subject is "key:NAME".
	Name string `yaml:"name" jsonschema:"required"`
	// Key is the secret the client sends as `Authorization: Bearer KEY`.
	// Take it from the environment: `key: ${ORDERS_API_KEY}`. At least 16
	// characters.
	Key string `yaml:"key" jsonschema:"required"`
	// Scopes granted to clients using this key.
	Scopes []string `yaml:"scopes,omitempty"`
}

// TLS makes `mcpgen serve` terminate TLS itself, for set-ups without an
// ingress or load balancer doing it. The files are read again when they
// change, so a renewed certificate is used without a restart.
type TLS struct {
	// CertFile is the PEM certificate chain, relative to the config file.
	CertFile string `yaml:"cert_file" jsonschema:"required"`
	// KeyFile is the PEM private key, relative to the config file.
	KeyFile string `yaml:"key_file" jsonschema:"required"`
}
