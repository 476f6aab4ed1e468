// Package spec holds the Go types of an mcpgen configuration file.
//
// The types carry no behaviour: package runtime/load fills them from YAML (keeping
// every node's position), runtime.Build turns them into a server, and the
// schema package reflects them into mcpgen.schema.json. Every field's doc
// comment is written for the person writing the YAML; it becomes the field's
// description in the JSON Schema and in the reference docs.
package spec

// Config is one mcpgen configuration file, or several merged together.
type Config struct {
	// Version of the configuration format. Must be 1.
	Version int `yaml:"version" jsonschema:"required,enum=1"`
	// Include loads other config files with this one, each a path or a
	// glob (`tools/*.yaml`: `*`, `?` and `[...]` match within one
	// directory) relative to this file's directory. An included file is a
	// config of its own (`version: 1`), merged as files given together on
	// the command line are, and its problems are reported at its own
	// lines; it sees this file's `env_file` variables. Each file is loaded
	// once; a file that includes itself, directly or through others, is an
	// error, and so is an entry that matches no file.
	Include []string `yaml:"include,omitempty" mcpgen:"server"`
	// EnvFile is a `.env` file (KEY=value lines) relative to this file's
	// directory whose variables feed this file's `${VAR}` and `env.NAME`,
	// and those of the files it includes. A variable set in the
	// environment is never overridden by the file. A missing file is
	// skipped (the variables are then expected in the environment, as in
	// production); a file that cannot be read or parsed is an error. Its
	// values are secrets by the same rules as the environment's.
	EnvFile string `yaml:"env_file,omitempty" mcpgen:"server"`
	// Overlays name, by environment, a file merged over this one when the
	// variable MCPGEN_ENV names that environment (`MCPGEN_ENV=prod`), e.g.
	// `{dev: mcpgen.dev.yaml, prod: mcpgen.prod.yaml}`. The overlay's
	// mappings merge key by key into this file's; a list of named entries
	// (tools, prompts, …) merges by `name`, an entry of a new name being
	// added; any other value replaces this file's; `~` clears a setting.
	// An overlay changes only this file. Without MCPGEN_ENV no overlay is
	// used; an environment that the overlays of no file of the config name
	// is an error (a file without one for it is used as it is). An
	// overlay may not set `include`, `env_file` or `overlays`.
	Overlays map[string]string `yaml:"overlays,omitempty" mcpgen:"server"`
	// Server describes this MCP server to clients.
	Server Server `yaml:"server,omitempty"`
	// Backends are named, shared connections (an HTTP API, a database) that
	// several tools and resources refer to with `backend: NAME`.
	Backends map[string]*Handler `yaml:"backends,omitempty"`
	// Tools the model can call.
	Tools []*Tool `yaml:"tools,omitempty"`
	// Resources are fixed URIs whose content clients can read.
	Resources []*Resource `yaml:"resources,omitempty"`
	// ResourceTemplates are URI templates (RFC 6570); reading a matching URI
	// binds the template's variables.
	ResourceTemplates []*ResourceTemplate `yaml:"resource_templates,omitempty"`
	// Prompts are message templates a user picks, often as slash commands.
	Prompts []*Prompt `yaml:"prompts,omitempty"`
	// Skills are instructions for the model on how to do a task with the
	// tools, served by the MCP skills extension.
	Skills []*Skill `yaml:"skills,omitempty"`
	// Toolsets are named subsets of the tools, served with `mcpgen serve
	// --toolset NAME`: clients handle a few dozen tools well, so a large
	// config is served as several smaller servers.
	Toolsets map[string]*Toolset `yaml:"toolsets,omitempty"`
	// Secrets names environment variables whose values are secrets
	// whatever their names say, e.g. `[CRM_USER, SIGNING_MATERIAL]`. A
	// value is masked (in errors, logs, dry runs and results) when it is a
	// secret: declared here, named like one (`…_TOKEN`, `…_PASSWORD`,
	// `…_KEY`, `…_SECRET`, …), fed into a credential field (auth, a header
	// that carries a credential, a DSN's password), or a URL with a
	// password. Other values (base URLs, hosts, regions) are shown as they
	// are; values of fewer than 4 characters never count as secrets.
	Secrets []string `yaml:"secrets,omitempty"`
	// Tests are behaviour tests of this file, which `mcpgen test` runs and
	// the server ignores: the cases of a test file (NAME.test.yaml, see
	// schema/mcpgen-test.schema.json) written here instead.
	Tests Node `yaml:"tests,omitempty"`
}

// Toolset is a named subset of the tools: those it names and those
// carrying one of its tags. Resources, templates and prompts with tags are
// served when one of their tags is among the toolset's; those without tags
// always are.
type Toolset struct {
	// Description says what the subset is for.
	Description string `yaml:"description,omitempty"`
	// Tools named, each a tool's name or a glob (`github_*`) matching at
	// least one.
	Tools []string `yaml:"tools,omitempty"`
	// Tags: the tools, resources, templates and prompts carrying one of
	// them.
	Tags []string `yaml:"tags,omitempty"`
}

// Server describes the MCP server to its clients.
type Server struct {
	// Name sent to clients in serverInfo. Defaults to "mcpgen".
	Name string `yaml:"name,omitempty"`
	// Version sent to clients in serverInfo. Defaults to "0.0.0".
	Version string `yaml:"version,omitempty"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description says what the server offers, for people choosing it in a
	// client (serverInfo.description).
	Description string `yaml:"description,omitempty"`
	// WebsiteURL is the server's home page (serverInfo.websiteUrl), an
	// absolute http: or https: URL.
	WebsiteURL string `yaml:"website_url,omitempty"`
	// Icons a client may show for the server (serverInfo.icons).
	Icons []*Icon `yaml:"icons,omitempty"`
	// Instructions tell the client's model how to use this server.
	Instructions string `yaml:"instructions,omitempty"`
	// HTTP configures serving over Streamable HTTP (`mcpgen serve --http`).
	HTTP *HTTP `yaml:"http,omitempty" mcpgen:"server"`
	// RateLimit is the rate limit of every tool that sets none of its own.
	RateLimit *RateLimit `yaml:"rate_limit,omitempty"`
	// Cache bounds the results kept by tools' `cache`.
	Cache *CacheServer `yaml:"cache,omitempty"`
	// Stdio configures serving over stdio (`mcpgen serve` without --http).
	Stdio *Stdio `yaml:"stdio,omitempty" mcpgen:"server"`
	// CacheHint is the caching hint (`ttlMs`, `cacheScope`) of list results
	// (tools, prompts, resources, templates), server/discover and resource
	// reads; tools, prompts and resources may set their own.
	CacheHint *CacheHint `yaml:"cache_hint,omitempty"`
	// RequestState signs the state of questions asked over several rounds
	// of 2026-07-28 requests.
	RequestState *RequestState `yaml:"request_state,omitempty" mcpgen:"server"`
	// Tasks configures tools that run as tasks (`task:` on a tool).
	Tasks *Tasks `yaml:"tasks,omitempty"`
	// MaxResult caps the text of every tool's result that sets no
	// `max_result` of its own. Defaults to 1MiB.
	MaxResult Size `yaml:"max_result,omitempty"`
	// Budget bounds what the server costs a model's context, in tokens:
	// `mcpgen validate` counts what a client loads and reports going over.
	Budget *Budget `yaml:"budget,omitempty"`
	// Lint sets the severity of `mcpgen validate`'s checks of what a model
	// reads (tool descriptions, argument descriptions, names, schemas), by
	// rule name: `warning` (each rule's default), `error` or `off`. The
	// rules are listed under "Description lint" in the README.
	Lint map[string]string `yaml:"lint,omitempty"`
	// ToolSearch serves, instead of every tool, three tools that find
	// them: `search_tools` (ranks the tools for what the model wants to
	// do), `describe_tools` (their schemas) and `call_tool` (calls one, with
	// every check of a direct call). Tools marked `always` are listed too,
	// and any tool can still be called by name. `mcpgen serve --tool-search`
	// turns it on for a run.
	ToolSearch *ToolSearch `yaml:"tool_search,omitempty"`
	// State selects where replicas share their state (Redis); without it
	// every process keeps its own in memory.
	State *State `yaml:"state,omitempty" mcpgen:"server"`
}

// Handler selects a backend kind and holds that kind's settings.
//
// The settings are decoded into the kind's own configuration type when the
// config is built; see the reference documentation of each kind.
type Handler struct {
	// Kind of backend: shell, http, sql or graphql.
	Kind string `yaml:"kind" jsonschema:"required"`
	// Backend names an entry of the top-level `backends` whose settings this
	// handler uses.
	Backend string `yaml:"backend,omitempty"`
	// Readiness makes a named backend part of /readyz (`backends` entries
	// only).
	Readiness *Readiness `yaml:"-"`
	// Concurrency caps the calls running at once on a named backend, over
	// all the tools that use it (`backends` entries only).
	Concurrency *Concurrency `yaml:"-"`
	// Body holds the kind-specific settings, decoded by the kind itself.
	Body Node `yaml:"-"`
}

// Budget bounds the tokens a client's model reads before it calls anything:
// the tools/list answer (each tool's name, title, description and schemas),
// prompts and resource templates. `mcpgen validate` counts them with the
// o200k_base encoding (GPT-4o and later; other models' tokenizers count a
// few percent differently) and reports what goes over; `mcpgen validate
// --costs` prints the table.
type Budget struct {
	// ToolsListTokens bounds the whole tools/list answer.
	ToolsListTokens int `yaml:"tools_list_tokens,omitempty" jsonschema:"minimum=1"`
	// ToolTokens bounds any one tool as tools/list sends it.
	ToolTokens int `yaml:"tool_tokens,omitempty" jsonschema:"minimum=1"`
	// Severity of going over the budget: `warning` (the default) or
	// `error`, which makes `validate` fail.
	Severity string `yaml:"severity,omitempty" jsonschema:"enum=warning,enum=error"`
}

// ToolSearch lets a model find tools rather than load them all.
type ToolSearch struct {
	// Enabled turns tool search on.
	Enabled bool `yaml:"enabled"`
}
