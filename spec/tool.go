package spec

// Tool is a function the model can call.
type Tool struct {
	// Name the model calls the tool by: 1 to 128 characters of letters,
	// digits, '_', '-' and '.'; unique across all files.
	Name string `yaml:"name" jsonschema:"required"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description tells the model what the tool does and when to use it.
	Description string `yaml:"description" jsonschema:"required"`
	// Icons a client may show for it.
	Icons []*Icon `yaml:"icons,omitempty"`
	// Args declares the tool's arguments in the concise form. mcpgen compiles
	// them to a JSON Schema, so types, bounds and enums are visible to the
	// model. Use `input_schema` instead for anything this form cannot say.
	Args []*Arg `yaml:"args,omitempty" mcpgen:"at_most_one=schema"`
	// InputSchema is a verbatim JSON Schema for the arguments (root `type:
	// object`), served to clients exactly as written, in place of `args`.
	InputSchema *Value `yaml:"input_schema,omitempty" mcpgen:"at_most_one=schema"`
	// OutputSchema is a JSON Schema for the tool's structured result. When set,
	// every result's structuredContent is validated against it.
	OutputSchema *Value `yaml:"output_schema,omitempty"`
	// App names the interactive page (MCP Apps) that clients supporting the
	// extension show with the tool's results.
	App *ToolApp `yaml:"app,omitempty"`
	// Annotations are hints about the tool's behaviour shown to clients.
	Annotations *Annotations `yaml:"annotations,omitempty"`
	// Confirm asks the user to confirm the call before anything runs (an
	// elicitation without fields), with this message, a template over
	// `.args`. If the user declines or cancels, nothing runs and the tool
	// returns an error result saying so. Use it on destructive tools. A
	// client that does not support elicitation cannot confirm, so its call
	// is refused and nothing runs: an error result for clients up to
	// 2025-11-25, the error -32021 (a missing client capability) at
	// 2026-07-28. A stateless server cannot ask clients up to 2025-11-25
	// at all; `validate` warns.
	Confirm string `yaml:"confirm,omitempty"`
	// Steps run in order before the handler or the content: log messages,
	// progress reports, sleeps, questions to the client's model (sample) or
	// to the user (elicit). Their results are `.steps.NAME` in templates and
	// `steps.NAME` in the handler's expressions.
	Steps []*Step `yaml:"steps,omitempty"`
	// Handler runs the tool on a backend (shell, http, sql, graphql). A
	// tool without a handler returns its `content`.
	Handler *Handler `yaml:"handler,omitempty"`
	// Content is the result of a tool without a handler, or, with a handler,
	// replaces the default rendering of its result. Templates see `.args` and,
	// after a handler ran, `.result`: its structured result, or else its text.
	Content []*Content `yaml:"content,omitempty"`
	// Error makes a tool without a handler return its content as an error
	// result (isError: true).
	Error bool `yaml:"error,omitempty"`
	// RateLimit caps how often each caller may call this tool; it replaces
	// the server's `rate_limit`.
	RateLimit *RateLimit `yaml:"rate_limit,omitempty"`
	// Concurrency caps how many calls of this tool run at once.
	Concurrency *Concurrency `yaml:"concurrency,omitempty"`
	// Cache keeps this tool's results for a while; the tool must be
	// read-only (`annotations.read_only`, or a handler that only reads).
	Cache *Cache `yaml:"cache,omitempty"`
	// Tags group the tool with others: `serve --tags`, and `tags` in a
	// toolset, serve only the tools carrying one of the tags named. Letters,
	// digits, '_', '-', '.' and ':', up to 64 characters.
	Tags []string `yaml:"tags,omitempty"`
	// Always lists the tool in tools/list even when server.tool_search
	// serves the search tools instead of the others.
	Always bool `yaml:"always,omitempty"`
	// Scopes a caller must have been granted to see and call the tool over
	// authenticated HTTP (`server.http.auth`). A caller without them does not
	// find the tool in tools/list, and calling it anyway is refused.
	Scopes []string `yaml:"scopes,omitempty"`
	// Requires lists the client capabilities a call needs: sampling,
	// elicitation or roots. Those its steps need are added by themselves
	// (sample, elicit and confirm, roots; an elicit step with a url needs
	// URL elicitation and a sample step offering tools sampling with tools,
	// so named in the error), except for steps marked `if_supported`. A 2026-07-28 client that did not declare one gets the
	// error -32021; an older client gets an error result.
	Requires []string `yaml:"requires,omitempty" jsonschema:"enum=sampling,enum=elicitation,enum=roots"`
	// CacheHint is this tool's caching hint: tools/list carries the shortest
	// TTL of all tools, and is private if any tool is.
	CacheHint *CacheHint `yaml:"cache_hint,omitempty"`
	// Task lets the tool run as a task, which clients poll, fetch the
	// result of later, and may cancel (stopping the process, query or
	// request): `optional` lets the client choose, `required` refuses a
	// plain call. Settings are in `server.tasks`.
	Task string `yaml:"task,omitempty" jsonschema:"enum=optional,enum=required"`
	// MaxResult caps the text of a result, in bytes (after credentials are
	// masked). A longer result is cut, at a line end where one is near, and
	// ends with a note saying how much was left out and that a narrower
	// call gets the rest; its structured content is left out when it is
	// longer than the cap too. Defaults to `server.max_result`.
	MaxResult Size `yaml:"max_result,omitempty"`
	// Overflow says what happens to a result over `max_result`: `cut`
	// (the default) ends it with a note; `pages` keeps the whole text for
	// 15 minutes and returns its first page with a resource link to the
	// next (`mcpgen://results/ID/2`), which the model reads with
	// resources/read, each page ending with the link to the one after.
	// Only the caller that made the call can read its pages. Pages are
	// kept in the memory of the process: with several replicas, reads
	// need session affinity.
	Overflow string `yaml:"overflow,omitempty" jsonschema:"enum=cut,enum=pages"`
	// TaskAfter names a step (its `as`): for a 2026-07-28 client, the
	// steps up to and including it run in the call itself, their questions
	// asked as input requests of the call, and the task starts only once
	// they are answered, with their results; the steps after it run in the
	// task. Without it, a task starts at once and every question waits on
	// the task (answered with tasks/update). Needs `task`.
	TaskAfter string `yaml:"task_after,omitempty"`
}

// Arg is one tool argument in the concise form.
type Arg struct {
	// Name of the argument, as the model passes it.
	Name string `yaml:"name" jsonschema:"required"`
	// Type of the value: string, integer, number, boolean, array or object.
	// Defaults to string.
	Type string `yaml:"type,omitempty" jsonschema:"enum=string,enum=integer,enum=number,enum=boolean,enum=array,enum=object"`
	// Description tells the model what to pass.
	Description string `yaml:"description,omitempty"`
	// Required arguments must be passed on every call.
	Required bool `yaml:"required,omitempty"`
	// Default is used when the argument is not passed.
	Default any `yaml:"default,omitempty"`
	// Enum lists the only values allowed.
	Enum []any `yaml:"enum,omitempty"`
	// Minimum value of a number or integer.
	Minimum *float64 `yaml:"minimum,omitempty"`
	// Maximum value of a number or integer.
	Maximum *float64 `yaml:"maximum,omitempty"`
	// MinLength of a string, in characters.
	MinLength *int `yaml:"min_length,omitempty"`
	// MaxLength of a string, in characters.
	MaxLength *int `yaml:"max_length,omitempty"`
	// Pattern is a regular expression a string must match.
	Pattern string `yaml:"pattern,omitempty"`
	// From binds the argument to the authenticated caller: an expression
	// over `auth`, such as auth.subject or auth.claims.email. A bound
	// argument is not in the input schema, so the model cannot set it; a
	// call that passes it anyway is refused. When the expression yields
	// nothing (a claim the token lacks, or empty text), a required
	// argument refuses the call and an optional one is left out. Only
	// name, type, description and required apply to a bound argument.
	From string `yaml:"from,omitempty"`
	// Items is the type of an array's elements (string, integer, number,
	// boolean, object). Defaults to string.
	Items string `yaml:"items,omitempty" jsonschema:"enum=string,enum=integer,enum=number,enum=boolean,enum=object"`
	// Header mirrors the argument in an HTTP header, Mcp-Param-HEADER, that
	// 2026-07-28 clients send with each call (`x-mcp-header`), so proxies
	// can route on it without reading the body; mcpgen checks the header
	// against the argument and refuses a mismatch with HTTP 400. A name of
	// letters, digits and !#$%&'*+-.^_`|~, unique among the tool's
	// headers regardless of case; only for string, integer and boolean
	// arguments. Never for secrets.
	Header string `yaml:"header,omitempty"`
}

// Annotations are hints about a tool's behaviour. Clients treat them as
// untrusted; they guide, they do not enforce.
type Annotations struct {
	// Title is a display name, used when the tool has no `title`.
	Title string `yaml:"title,omitempty"`
	// ReadOnly says the tool does not modify its environment.
	ReadOnly *bool `yaml:"read_only,omitempty"`
	// Destructive says the tool may delete or overwrite data.
	Destructive *bool `yaml:"destructive,omitempty"`
	// Idempotent says calling the tool twice with the same arguments has no
	// further effect.
	Idempotent *bool `yaml:"idempotent,omitempty"`
	// OpenWorld says the tool reaches outside systems.
	OpenWorld *bool `yaml:"open_world,omitempty"`
}
