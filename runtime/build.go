// Package runtime answers MCP requests with a built mcpgen config.
//
// Package runtime/build turns loaded files into a plan.Plan: schemas,
// expressions (runtime/eval), templates and handlers compiled, every
// problem a Diagnostic with a position in the user's own file. A Server
// serves that plan: its MCP method registers tools, resources and prompts
// on the official MCP Go SDK; package runtime/transport serves it over
// stdio or Streamable HTTP.
package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/build"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// BuildOptions control how a config becomes a server (build.Options).
type BuildOptions = build.Options

// The build's defaults, as package build states them.
const (
	// DefaultCacheBytes bounds the result cache when server.cache says nothing.
	DefaultCacheBytes = build.DefaultCacheBytes
	// DefaultMaxTokens is a sample step's max_tokens when the config gives none.
	DefaultMaxTokens = build.DefaultMaxTokens
	// DefaultMaxResult caps the text of a tool's result when the config sets no cap.
	DefaultMaxResult = build.DefaultMaxResult
)

// Build compiles loaded files into a Server. Every problem is a diagnostic;
// the server is nil when there is an error. After a failed build, whatever
// was opened has been closed.
func Build(files []*load.File, opts BuildOptions) (*Server, load.Diagnostics) {
	p, ds := build.Build(files, opts)
	return serverOf(p), ds
}

// Compile loads and builds in one step.
func Compile(paths []string, lo load.Options, bo BuildOptions) (*Server, load.Diagnostics) {
	p, ds := build.Compile(paths, lo, bo)
	return serverOf(p), ds
}

// LoopbackAddr reports whether a listen address (host:port) is on
// loopback only, out of reach of other machines.
func LoopbackAddr(addr string) bool { return build.LoopbackAddr(addr) }

// serverOf serves a built plan; nil for none.
func serverOf(p *plan.Plan) *Server {
	if p == nil {
		return nil
	}
	return &Server{plan: p}
}

// Plan returns what the server was built from; nil for a nil server. A
// reload hands it to the next build (BuildOptions.Previous).
func (s *Server) Plan() *plan.Plan {
	if s == nil {
		return nil
	}
	return s.plan
}
