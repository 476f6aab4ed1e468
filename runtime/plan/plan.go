package plan

import (
	"errors"
	"io"
	"log/slog"
	"slices"
	"time"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/cachehint"
	"github.com/mcpgen/mcpgen/runtime/expose"
	"github.com/mcpgen/mcpgen/runtime/identity"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/limits"
	"github.com/mcpgen/mcpgen/runtime/loglevel"
	"github.com/mcpgen/mcpgen/runtime/mask"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/redisstate"
	"github.com/mcpgen/mcpgen/runtime/reqstate"
	"github.com/mcpgen/mcpgen/runtime/spill"
	"github.com/mcpgen/mcpgen/runtime/task"
	"github.com/mcpgen/mcpgen/runtime/watch"
	"github.com/mcpgen/mcpgen/spec"
)

// Plan is a built config: what the builder made ready, and the server
// reads for every call.
type Plan struct {
	Info      Info
	Logger    *slog.Logger
	Tools     []*Tool
	ToolIndex map[string]*Tool
	AllTools  map[string]*Tool // every tool built, served or not (sampling offers them)
	Exposure  *expose.Exposure // tags and toolsets, for Select
	Prompts   []*Prompt
	Resources []*Resource
	Templates []*Resource
	Skills    []*Skill     // their files are among Resources
	Spill     *spill.Store // results kept in pages; nil when no tool keeps any
	// Schemas compiled the tools' schemas; with build's LazySchemas,
	// Schemas.CompileAll compiles the ones not used yet.
	Schemas *input.Compiler
	// Costs are the tokens of what clients list, when the build counted
	// them (build.Options.CountTokens or server.budget); nil otherwise.
	Costs *Costs
	// ToolSearch: tools/list lists the search tools (and the tools marked
	// always) instead of every tool; Search ranks the tools for them.
	ToolSearch bool
	Search     *SearchIndex
	Closers    []io.Closer
	Redact     *mask.Redactor
	Mask       *mask.Masker // credentials, hidden in results; nil for none
	Watch      *watch.Set   // files watched for resource subscribers
	HTTP       *spec.HTTP   // the config's server.http section, if any
	Stdio      *spec.Stdio  // the config's server.stdio section, if any
	Auth       *auth.Guard  // authenticates HTTP requests; nil for none
	TLS        *spec.TLS    // certificate files, resolved; nil for plain HTTP
	// WatchEvery is how often file-backed resources are checked.
	WatchEvery time.Duration
	Backends   map[string]any      // opened shared backends, by name
	LogLevels  *loglevel.Sessions  // what each session asked for
	Carry      map[string]*Carried // shared backends by name, for a reload to take over
	Adopted    []any               // backends taken from BuildOptions.Previous, until takeOver
	Identity   *identity.Identity  // who callers are, as expressions see them
	Limits     *limits.Set         // rate and concurrency limits, result cache
	Obs        *observe.Observer
	Probes     []observe.Probe
	CacheCfg   *spec.CacheHint // the config's server.cache_hint
	Cache      cachehint.Lists
	SkillHint  cachehint.Hint            // of skills/list and skills/get
	States     *reqstate.Signer          // signs the state of input requests (2026-07-28)
	Extensions map[string]map[string]any // advertised, by id (extensions.go)
	Apps       []string                  // URIs of the resources that are apps' pages (MCP Apps)
	Tasks      *task.Manager             // tools that run as tasks; nil for none
	TaskOpts   task.Options              // server.tasks
	Shared     *redisstate.State         // server.state.redis; nil for memory
}

// Close releases what handlers and backends hold (pools, processes).
func (p *Plan) Close() error {
	var errs []error
	for _, c := range slices.Backward(p.Closers) {
		errs = append(errs, c.Close())
	}
	p.Closers = nil
	return errors.Join(errs...)
}

// Info describes the server to clients.
type Info struct {
	Name, Version, Title, Instructions string
	// Description and WebsiteURL describe the server to people choosing it.
	Description, WebsiteURL string
	// Icons a client may show for the server.
	Icons []mcp.Icon
}

// Carried is a shared backend a server opened, with the settings it was
// opened with, so that a reload whose settings for it did not change takes
// it over, pool, cache and all (BuildOptions.Previous).
type Carried struct {
	Key   string // kind, settings and the environment they read
	Value any
}
