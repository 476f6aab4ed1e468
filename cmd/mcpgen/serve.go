package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/transport"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// serveFlags are the flags of `mcpgen serve`.
type serveFlags struct {
	level, format, metricsAddr, httpAddr  string
	onStdio, stateless, toolSearch, watch bool
	tlsFiles                              transport.HTTPOptions
	sel                                   runtime.Selection
}

// serveCommand declares `mcpgen serve`.
func serveCommand() *cobra.Command {
	var f serveFlags
	cmd := newCommand("serve [flags] FILE...", "serve a config over stdio or Streamable HTTP",
		func(ctx context.Context, files []string, std stdio) int { return runServe(ctx, files, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.level, "log-level", "info", "operator log level on stderr: debug, info, warn or error")
	completeWords(cmd, "log-level", logLevels...)
	fs.StringVar(&f.format, "log-format", "text", "operator log format on stderr: text (key=value) or json (one object a line)")
	completeWords(cmd, "log-format", "text", "json")
	fs.StringVar(&f.metricsAddr, "metrics-addr", "", "also serve /metrics, /readyz and /healthz at `ADDR` (e.g. 127.0.0.1:9090), beside stdio or apart from the MCP port")
	fs.StringVar(&f.httpAddr, "http", "", "serve Streamable HTTP at `ADDR` (e.g. 127.0.0.1:8080) instead of stdio; the endpoint is /mcp")
	fs.BoolVar(&f.onStdio, "stdio", false, "serve on stdio even when the config sets server.http, as a desktop client that launches mcpgen needs")
	fs.BoolVar(&f.stateless, "stateless", false, "with HTTP: serve every request without a session (no sampling, elicitation or resumption)")
	fs.BoolVar(&f.toolSearch, "tool-search", false, "serve search_tools, describe_tools and call_tool instead of the full tool list (as server.tool_search does)")
	fs.BoolVar(&f.watch, "watch", false, "reload the config when its files change (SIGHUP reloads it always); clients are told what changed")
	fs.StringVar(&f.tlsFiles.TLSCertFile, "tls-cert", "", "with HTTP: serve HTTPS with this PEM certificate chain (reloaded when it changes); needs --tls-key")
	fs.StringVar(&f.tlsFiles.TLSKeyFile, "tls-key", "", "with HTTP: the PEM private key of --tls-cert")
	fs.StringVar(&f.sel.Toolset, "toolset", "", "serve only the toolset `NAME` of the config (a key of toolsets:)")
	fs.Var((*listFlag)(&f.sel.Tools), "tools", "serve only these tools: names or globs (github_*), comma-separated or repeated")
	fs.Var((*listFlag)(&f.sel.Tags), "tags", "serve only the tools with one of these tags (and leave out resources and prompts tagged otherwise)")
	return cmd
}

func runServe(ctx context.Context, files []string, std stdio, f *serveFlags) int {
	// the names the flags had when each was a variable of its own
	level, format, metricsAddr, httpAddr := &f.level, &f.format, &f.metricsAddr, &f.httpAddr
	onStdio, stateless, toolSearch, watch := &f.onStdio, &f.stateless, &f.toolSearch, &f.watch
	tlsFiles, sel := f.tlsFiles, f.sel
	if len(files) == 0 {
		return usageError(std.err, "serve", "no config file given")
	}
	if (tlsFiles.TLSCertFile == "") != (tlsFiles.TLSKeyFile == "") {
		return usageError(std.err, "serve", "--tls-cert and --tls-key go together")
	}
	if *onStdio && (*httpAddr != "" || *stateless || tlsFiles.TLSCertFile != "") {
		return usageError(std.err, "serve", "--stdio does not go with --http, --stateless or --tls-cert")
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(*level)); err != nil {
		return usageError(std.err, "serve", fmt.Sprintf("unknown log level %q", *level))
	}
	// stdout carries the protocol: operator logs go to stderr only.
	logger, ok := newLogger(std.err, *format, lv)
	if !ok {
		return usageError(std.err, "serve", fmt.Sprintf("unknown log format %q; use text or json", *format))
	}
	obs := &observe.Observer{Metrics: observe.NewMetrics()}
	rl, ds, selErr := startReloader(files, runtime.BuildOptions{Registry: builtin.Registry(), Logger: logger, Observer: obs, Stateless: *stateless,
		LazySchemas: true, ToolSearch: *toolSearch}, sel, false, std.err)
	if selErr != nil {
		return usageError(std.err, "serve", selErr.Error())
	}
	toStdio := *onStdio || (*httpAddr == "" && !*stateless && tlsFiles.TLSCertFile == "")
	if rl == nil {
		if toStdio && !isTerminal(std.in) {
			// a client launched mcpgen: it shows the client why, as stderr never reaches the user
			return serveStartFailure(ctx, newStartFailure(files, ds), std, logger)
		}
		return exitError
	}
	defer rl.Close()
	srv := rl.Server()
	go checkSchemas(srv, logger)
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	reloadOn(watchCtx, rl, *watch)
	stopTracing, err := startTracing(ctx, srv, std.err)
	if err != nil {
		logger.Error("tracing", "err", err)
		return exitError
	}
	defer stopTracing()
	if *metricsAddr != "" {
		go serveOps(ctx, srv, *metricsAddr, logger)
	}
	if !*onStdio && (*httpAddr != "" || *stateless || tlsFiles.TLSCertFile != "" || srv.ServesHTTP()) {
		if *httpAddr == "" && srv.ServesHTTP() {
			// a client that launched mcpgen waits on stdio: tell it why nothing comes
			logger.Info("serving HTTP because the config sets server.http.addr; pass --stdio to serve on stdio")
		}
		return serveHTTP(ctx, srv, *httpAddr, *stateless, tlsFiles, logger)
	}
	if isTerminal(std.in) {
		fmt.Fprintf(std.err, "mcpgen: serving %s on stdio.\n"+
			"An MCP client launches this command itself; see the README to connect one.\n"+
			"Type JSON-RPC messages, one per line, or press Ctrl-D to stop.\n", srv.Describe())
	}
	opts := transport.StdioConfig(srv)
	opts.Problems = func(ctx context.Context) []string { return unreachable(ctx, rl.Server(), files) } // the config now served
	if err := transport.ServeStdio(ctx, srv, std.in, std.out, opts); err != nil {
		logger.Error("serving stdio", "err", err)
		return exitError
	}
	return exitOK
}

// serveHTTP serves Streamable HTTP until ctx ends (SIGINT or SIGTERM), then
// shuts down gracefully. The address and flags override the config's.
func serveHTTP(ctx context.Context, srv *runtime.Server, addr string, stateless bool, tlsFiles transport.HTTPOptions, logger *slog.Logger) int {
	cfgAddr, opts := transport.HTTPConfig(srv)
	if addr == "" {
		addr = cfgAddr
	}
	if stateless {
		opts.Stateless = true
	}
	if tlsFiles.TLSCertFile != "" {
		opts.TLSCertFile, opts.TLSKeyFile = tlsFiles.TLSCertFile, tlsFiles.TLSKeyFile
	}
	warnExposed(logger, srv.Auth() != nil, addr)
	scheme := "http://"
	if opts.TLSCertFile != "" {
		scheme = "https://"
	}
	opts.OnListen = func(a net.Addr) {
		logger.Info("serving Streamable HTTP", "url", scheme+a.String()+"/mcp", "stateless", opts.Stateless,
			"tools", len(srv.ToolNames()), "auth", srv.Auth() != nil)
	}
	if err := transport.ListenAndServe(ctx, srv, addr, opts); err != nil {
		logger.Error("serving HTTP", "err", err)
		return exitError
	}
	return exitOK
}

// checkSchemas compiles the schemas the build left for their first use
// and logs the ones that do not compile, which `validate` reports as errors
// and calls of their tools would fail on.
func checkSchemas(srv *runtime.Server, logger *slog.Logger) {
	for _, err := range srv.Plan().Schemas.CompileAll() {
		logger.Error("a tool's schema does not compile; its calls fail until it is fixed (mcpgen validate shows where)", "err", err)
	}
}

// isTerminal reports whether r is a terminal: a person ran serve by hand.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) // not /dev/null, a character device too
}

// warnExposed warns when a server without auth listens where other
// machines reach it.
func warnExposed(logger *slog.Logger, hasAuth bool, addr string) {
	if !hasAuth && !runtime.LoopbackAddr(addr) {
		logger.Warn("no auth is configured and the address is reachable from other machines: anyone who reaches it can call every tool; add server.http.auth or listen on 127.0.0.1",
			"addr", addr)
	}
}
