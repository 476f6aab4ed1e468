package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/devpage"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/reload"
	"github.com/mcpgen/mcpgen/runtime/transport"
	"github.com/spf13/cobra"
)

// devFlags are the flags of `mcpgen dev`.
type devFlags struct {
	addr  string
	level string
}

// devCommand declares `mcpgen dev`.
func devCommand() *cobra.Command {
	var f devFlags
	cmd := newCommand("dev [flags] FILE...", "serve a config with live reload and a web page to try its tools",
		func(ctx context.Context, files []string, std stdio) int { return runDev(ctx, files, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.addr, "addr", "127.0.0.1:0", "listen at `ADDR`, a loopback address (port 0: any free port)")
	fs.StringVar(&f.level, "log-level", "info", "operator log level on stderr: debug, info, warn or error")
	completeWords(cmd, "log-level", logLevels...)
	return cmd
}

// runDev serves the config over Streamable HTTP on the loopback interface,
// reloads it when its files change, and serves beside it a page to try
// every tool, resource and prompt, at a URL with a random token.
func runDev(ctx context.Context, files []string, std stdio, f *devFlags) int {
	if len(files) == 0 {
		return usageError(std.err, "dev", "no config file given")
	}
	if !runtime.LoopbackAddr(f.addr) {
		return usageError(std.err, "dev", fmt.Sprintf("--addr %s is not a loopback address; the page is for this machine only", f.addr))
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(f.level)); err != nil {
		return usageError(std.err, "dev", fmt.Sprintf("unknown log level %q", f.level))
	}
	logger := slog.New(slog.NewTextHandler(std.err, &slog.HandlerOptions{Level: lv}))
	obs := &observe.Observer{Metrics: observe.NewMetrics()}
	var dev *devpage.Dev
	rl, ds := reload.Start(reload.Options{Paths: files, Logger: logger, Metrics: obs.Metrics, Compile: compile,
		Build: runtime.BuildOptions{Registry: builtin.Registry(), Logger: logger, Observer: obs, CountTokens: true},
		OnBuild: func(ds load.Diagnostics, ok bool) {
			if dev != nil {
				dev.Built(ds, ok)
			}
		}}, true)
	for _, d := range ds {
		fmt.Fprintln(std.err, d)
	}
	defer rl.Close()
	srv := rl.Server()
	dev = devpage.Register(srv.MCP(), srv)
	dev.CostsFrom(func() *devpage.Costs { return devCosts(rl.Server().Plan().Costs) })
	dev.SwitchWith(devSwitches(rl))
	dev.Built(ds, ds.Errors() == 0)
	return serveDev(ctx, rl, dev, f.addr, std, logger)
}

// serveDev listens at addr and serves the page and the MCP endpoint until
// ctx is canceled, reloading the config as its files change.
func serveDev(ctx context.Context, rl *reload.Reloader, dev *devpage.Dev, addr string, std stdio, logger *slog.Logger) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logger.Error("listening", "addr", addr, "err", err)
		return exitError
	}
	token := devpage.NewToken()
	h := transport.NewHTTPHandler(rl.Server(), transport.HTTPOptions{})
	hs := &http.Server{Handler: dev.Handler(token, h), ReadHeaderTimeout: 10 * time.Second}
	base := fmt.Sprintf("http://%s/%s/", ln.Addr(), token)
	fmt.Fprintf(std.err, "mcpgen dev: open %s\nMCP clients connect to %smcp\nWatching %d files; Ctrl-C stops.\n",
		base, base, len(rl.Files()))
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	reloadOn(watchCtx, rl, true)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		logger.Error("serving", "err", err)
		h.Close()
		return exitError
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = h.Shutdown(shut)
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("shutting down", "err", err)
	}
	return exitOK
}

// devSwitches are the page's toggles: tool search on or off for the run,
// as serve --tool-search turns it on (and off, whatever the config says).
func devSwitches(rl *reload.Reloader) devpage.Switches {
	return devpage.Switches{
		ToolSearch: func() bool { return rl.Server().Plan().ToolSearch },
		SetToolSearch: func(ctx context.Context, on bool) {
			rl.ReloadWith(ctx, func(bo *runtime.BuildOptions) { bo.ToolSearch, bo.NoToolSearch = on, !on })
		},
	}
}

// devCosts is what the page shows of the costs.
func devCosts(c *plan.Costs) *devpage.Costs {
	if c == nil {
		return nil
	}
	out := &devpage.Costs{Encoding: c.Encoding, Tools: map[string]int{}, ToolsList: c.ToolsList, Total: c.Total(),
		BudgetToolsList: c.BudgetToolsList, BudgetTool: c.BudgetTool}
	for _, t := range c.Tools {
		out.Tools[t.Name] = t.Tokens
	}
	return out
}
