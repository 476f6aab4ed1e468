package httpkind

import "github.com/mcpgen/mcpgen/spec"

// Connection is how mcpgen reaches an HTTP API: where it is, how it
// authenticates and which TLS settings it uses. A named backend holds one;
// a tool without `backend:` may give its own.
type Connection struct {
	// BaseURL of the API, e.g. https://tracker.internal/api/v2. The scheme
	// and host of every request come from here, never from arguments; tool
	// paths are appended to it.
	BaseURL *string `yaml:"base_url,omitempty"`
	// Auth says how requests authenticate. Take secrets from the
	// environment (`${TOKEN}`): they are masked in errors and dry runs, and
	// the credentials in responses that echo them.
	Auth *Auth `yaml:"auth,omitempty"`
	// TLS settings for https base URLs.
	TLS *TLS `yaml:"tls,omitempty"`
	// Signing signs every request after it is built (and again on each
	// retry): an HMAC over the parts an API names (webhook style), or AWS
	// Signature Version 4. It goes with `auth` or alone.
	Signing *Signing `yaml:"signing,omitempty"`
}

// Signing is one way to sign requests; set exactly one field.
type Signing struct {
	// HMAC signs a message built from the request with a shared secret
	// and sends the signature in a header.
	HMAC *HMACSigning `yaml:"hmac,omitempty" mcpgen:"exactly_one=signing"`
	// AWSSigV4 signs requests with AWS Signature Version 4, using the
	// official AWS SDK for Go's signer.
	AWSSigV4 *AWSSigV4 `yaml:"aws_sigv4,omitempty" mcpgen:"exactly_one=signing"`
}

// HMACSigning is an HMAC signature of each request, as webhook and many
// REST APIs define it: a message made of the method, path, body and a
// timestamp, signed with a shared secret.
type HMACSigning struct {
	// Secret is the shared key; take it from the environment. It and the
	// signatures made with it are masked.
	Secret string `yaml:"secret" jsonschema:"required"`
	// Algorithm of the HMAC: sha256 (the default), sha512 or sha1.
	Algorithm string `yaml:"algorithm,omitempty" jsonschema:"enum=sha256,enum=sha512,enum=sha1"`
	// Encoding of the signature: hex (the default) or base64.
	Encoding string `yaml:"encoding,omitempty" jsonschema:"enum=hex,enum=base64"`
	// Header that carries the signature, e.g. X-Signature.
	Header string `yaml:"header" jsonschema:"required"`
	// Message is what is signed, an expression over `request`: method,
	// path (escaped, without the query), query (raw), body (as sent),
	// timestamp (Unix seconds, as text) and url. Defaults to the body, e.g.
	// `${{ request.timestamp + "." + request.method + "." + request.path + "." + request.body }}`.
	Message spec.Value `yaml:"message,omitempty"`
	// Value of the header, over `request` and `signature`. Defaults to the
	// signature alone, e.g. `sha256=${{ signature }}` or
	// `t=${{ request.timestamp }},v1=${{ signature }}`.
	Value spec.Value `yaml:"value,omitempty"`
	// TimestampHeader, when set, carries the timestamp that was signed,
	// e.g. X-Timestamp.
	TimestampHeader string `yaml:"timestamp_header,omitempty"`
}

// AWSSigV4 signs requests for an AWS service (or one that speaks its
// signature, such as MinIO or OpenSearch).
type AWSSigV4 struct {
	// Region of the service, e.g. eu-west-1.
	Region string `yaml:"region" jsonschema:"required"`
	// Service name signed for, e.g. execute-api, es, s3.
	Service string `yaml:"service" jsonschema:"required"`
	// AccessKeyID of the credentials; take it from the environment.
	AccessKeyID string `yaml:"access_key_id" jsonschema:"required"`
	// SecretAccessKey of the credentials; take it from the environment.
	SecretAccessKey string `yaml:"secret_access_key" jsonschema:"required"`
	// SessionToken of temporary credentials, if any.
	SessionToken string `yaml:"session_token,omitempty"`
}

// Limits bound each call. A tool's own values override its backend's.
type Limits struct {
	// Timeout bounds a whole call, retries and waits included. Defaults to
	// 30s.
	Timeout spec.Duration `yaml:"timeout,omitempty"`
	// MaxResponse is the most bytes of a response body read; the rest is
	// dropped and the result says it was truncated. Defaults to 4MiB.
	MaxResponse spec.Size `yaml:"max_response,omitempty"`
	// Retries of a failed request: connection errors and statuses 429, 500, 502,
	// 503 and 504, with exponential backoff and jitter, honouring
	// Retry-After. Only idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE)
	// are retried unless the tool sets `idempotent: true`.
	Retries *Retries `yaml:"retries,omitempty"`
}

// BackendConfig is a named `backends:` entry of kind http, shared by the
// tools and resources that name it.
type BackendConfig struct {
	SharedConnection `yaml:",inline"`
	// ToolDefaults are settings every tool of the backend shares; a tool
	// overrides them with its own.
	ToolDefaults `yaml:",inline"`
}

// SharedConnection is what a named backend's tools share: the
// connection, its limits and the headers sent with every request.
type SharedConnection struct {
	Connection `yaml:",inline"`
	Limits     `yaml:",inline"`
	// Headers sent with every request, e.g. `Accept: application/json`.
	// Tools add their own or replace these. A value may be an expression
	// over environment values, computed once when the config loads:
	// `Basic ${{ toBase64(env.API_USER + ':' + env.API_PASSWORD) }}`.
	Headers map[string]spec.Value `yaml:"headers,omitempty"`
	// ForwardHeaders names headers of the client's request to mcpgen that
	// are copied onto every request to this API, e.g. traceparent,
	// Accept-Language or a tenant header; nothing else is forwarded. A
	// header the request sets itself is not replaced. Authorization,
	// Proxy-Authorization and Cookie are refused: the caller's credentials
	// never reach a backend. Over stdio there is nothing to forward.
	ForwardHeaders []string `yaml:"forward_headers,omitempty"`
}

// ToolDefaults are the request and response settings that a backend gives
// all its tools, so that they are written once. A tool's own setting
// replaces the backend's (query parameters are merged, name by name; a
// tool's error rules are tried before the backend's). Expressions here see
// `response` (and, in pagination, the cursor), not a tool's arguments.
type ToolDefaults struct {
	// MethodOverride: every tool sends its request as POST with an
	// X-HTTP-Method-Override header, unless it sets method_override: false.
	MethodOverride *bool `yaml:"method_override,omitempty"`
	// Query parameters sent with every request, e.g. `api-version: "2024-01"`.
	// A tool's parameter of the same name replaces the backend's.
	Query map[string]spec.Value `yaml:"query,omitempty"`
	// Success statuses of every tool that lists none; see the tool's.
	Success []string `yaml:"success,omitempty"`
	// Errors are rules tried after a tool's own; see the tool's.
	Errors []*ErrorRule `yaml:"errors,omitempty"`
	// Result extracts the structured result of every tool that sets none,
	// e.g. ${{ response.body.data }}.
	Result spec.Value `yaml:"result,omitempty"`
	// ResultFields are added to the structured result of every tool (rate
	// limit headers, say), besides its own; see the tool's.
	ResultFields map[string]spec.Value `yaml:"result_fields,omitempty"`
	// Text renders the result of every tool that sets neither result nor
	// text.
	Text string `yaml:"text,omitempty"`
	// Pagination of every tool that sets none and does not poll; follow
	// mode only (cursor mode maps a tool's own argument). A tool whose
	// first response gives no list of items (one record, not a list) is
	// answered with that response.
	Pagination *Pagination `yaml:"pagination,omitempty"`
	// Revalidate: every tool keeps and revalidates its GET responses, unless
	// it sets revalidate: false; see the tool's.
	Revalidate bool `yaml:"revalidate,omitempty"`
}

// Auth is one way to authenticate; set exactly one field.
type Auth struct {
	// Bearer sends `Authorization: Bearer TOKEN`.
	Bearer *string `yaml:"bearer,omitempty" mcpgen:"exactly_one=auth"`
	// Basic sends HTTP basic authentication.
	Basic *BasicAuth `yaml:"basic,omitempty" mcpgen:"exactly_one=auth"`
	// APIKey sends a key in a header or a query parameter.
	APIKey *APIKey `yaml:"api_key,omitempty" mcpgen:"exactly_one=auth"`
	// OAuth2 fetches a token with the client-credentials grant, caches it
	// until it expires and fetches a new one then (or when the API answers
	// 401).
	OAuth2 *OAuth2 `yaml:"oauth2,omitempty" mcpgen:"exactly_one=auth"`
	// TokenExchange gets a token for this API on behalf of the
	// authenticated caller (OAuth 2.0 Token Exchange, RFC 8693): the
	// caller's token is sent to the token endpoint only, never to the API,
	// and the API sees the caller's identity in a token issued for it.
	// Tokens are cached per caller until they expire; a call without an
	// authenticated caller (stdio) is refused.
	TokenExchange *TokenExchange `yaml:"token_exchange,omitempty" mcpgen:"exactly_one=auth"`
}

// BasicAuth is a user name and password.
type BasicAuth struct {
	// Username to send.
	Username string `yaml:"username"`
	// Password to send; take it from the environment.
	Password string `yaml:"password,omitempty"`
}

// APIKey is a key sent in a header or a query parameter.
type APIKey struct {
	// Header carrying the key, e.g. X-API-Key.
	Header string `yaml:"header,omitempty" mcpgen:"exactly_one=place"`
	// Query parameter carrying the key, e.g. api_key.
	Query string `yaml:"query,omitempty" mcpgen:"exactly_one=place"`
	// Value of the key; take it from the environment.
	Value string `yaml:"value"`
}

// OAuth2 is the OAuth 2.0 client-credentials grant (RFC 6749 section 4.4).
type OAuth2 struct {
	// TokenURL is the authorization server's token endpoint.
	TokenURL string `yaml:"token_url"`
	// ClientID identifies mcpgen to the authorization server.
	ClientID string `yaml:"client_id"`
	// ClientSecret authenticates mcpgen; take it from the environment.
	ClientSecret string `yaml:"client_secret"`
	// Scopes requested, if any.
	Scopes []string `yaml:"scopes,omitempty"`
	// Params are extra form parameters of the token request, e.g. audience.
	Params map[string]string `yaml:"params,omitempty"`
}

// TokenExchange is the OAuth 2.0 Token Exchange grant (RFC 8693) with the
// caller's access token as the subject token. Give audience, resource or
// both: the token is for one API.
type TokenExchange struct {
	// TokenURL is the authorization server's token endpoint.
	TokenURL string `yaml:"token_url" jsonschema:"required"`
	// ClientID identifies mcpgen to the authorization server.
	ClientID string `yaml:"client_id" jsonschema:"required"`
	// ClientSecret authenticates mcpgen; take it from the environment.
	ClientSecret string `yaml:"client_secret,omitempty"`
	// Audience is the logical name of the API the token is for (the
	// `audience` parameter).
	Audience string `yaml:"audience,omitempty"`
	// Resource is the URI of the API the token is for (the `resource`
	// parameter, RFC 8707).
	Resource string `yaml:"resource,omitempty"`
	// Scopes requested for the API, if any; the authorization server may
	// grant fewer.
	Scopes []string `yaml:"scopes,omitempty"`
}

// TLS configures certificates for https.
type TLS struct {
	// CAFile is a PEM bundle of certificate authorities to trust instead of
	// the system's, relative to the config file.
	CAFile string `yaml:"ca_file,omitempty"`
	// CertFile is a PEM client certificate, for mutual TLS.
	CertFile string `yaml:"cert_file,omitempty"`
	// KeyFile is the PEM private key of cert_file.
	KeyFile string `yaml:"key_file,omitempty"`
	// Insecure skips verifying the server's certificate. Never use it
	// outside a laboratory: `mcpgen validate` warns about it.
	Insecure bool `yaml:"insecure,omitempty"`
}

// Retries configures retrying a failed request.
type Retries struct {
	// Max is the number of retries after the first attempt. Defaults to 2;
	// 0 turns retries off.
	Max *int `yaml:"max,omitempty"`
	// Backoff is the wait before the first retry; it doubles on each retry,
	// with random jitter. Defaults to 200ms.
	Backoff spec.Duration `yaml:"backoff,omitempty"`
	// MaxBackoff caps a wait, Retry-After included: an API asking to wait
	// longer gets no retry. Defaults to 10s.
	MaxBackoff spec.Duration `yaml:"max_backoff,omitempty"`
}
