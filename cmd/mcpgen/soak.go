package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// soakOptions are the flags of `mcpgen soak`.
type soakOptions struct {
	duration, window time.Duration
	rate             float64
	tool, args, url  string
}

// soakCommand declares `mcpgen soak`.
func soakCommand() *cobra.Command {
	var o soakOptions
	cmd := newCommand("soak [flags] (--url URL | FILE...)", "call a tool over HTTP at a fixed rate for minutes; report memory, goroutines, p99",
		func(ctx context.Context, files []string, std stdio) int { return runSoak(ctx, files, std, o) })
	fs := cmd.Flags()
	fs.DurationVar(&o.duration, "duration", 10*time.Minute, "how long to run")
	fs.Float64Var(&o.rate, "rate", 50, "tool calls a second, started on schedule whatever the latency")
	fs.DurationVar(&o.window, "window", time.Minute, "how often to report")
	fs.StringVar(&o.tool, "tool", "", "the tool to call; the first tool of tools/list when not given")
	fs.StringVar(&o.args, "args", "{}", "the tool's arguments, a JSON object")
	fs.StringVar(&o.url, "url", "", "a running server's base URL (http://host:port, serving /mcp and /metrics); without it, mcpgen serve --http runs FILE... on a free loopback port")
	return cmd
}

// runSoak calls a tool over Streamable HTTP at a fixed rate for a while
// and reports, per window, the calls, errors, latency percentiles and the
// server's resident memory and goroutines (from its /metrics): flat from
// the first window to the last is the goal.
func runSoak(ctx context.Context, files []string, std stdio, o soakOptions) int {
	if (o.url == "") == (len(files) == 0) {
		return usageError(std.err, "soak", "give either --url or config files")
	}
	if o.rate <= 0 || o.duration <= 0 || o.window <= 0 {
		return usageError(std.err, "soak", "--rate, --duration and --window must be positive")
	}
	if !strings.HasPrefix(strings.TrimSpace(o.args), "{") {
		return usageError(std.err, "soak", "--args must be a JSON object")
	}
	base := strings.TrimSuffix(o.url, "/")
	if base == "" {
		var stop func()
		var err error
		if base, stop, err = startServer(ctx, files, std.err); err != nil {
			fmt.Fprintf(std.err, "mcpgen soak: %v\n", err)
			return exitError
		}
		defer stop()
	}
	rep, err := soak(ctx, base, o, std.out)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen soak: %v\n", err)
		return exitError
	}
	if rep.errors*100 > rep.calls {
		fmt.Fprintf(std.err, "mcpgen soak: %d of %d calls failed\n", rep.errors, rep.calls)
		return exitError
	}
	return exitOK
}

// startServer runs `mcpgen serve --http` on files at a free loopback port
// and returns its base URL once it is healthy, and how to stop it.
func startServer(ctx context.Context, files []string, stderr io.Writer) (string, func(), error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	cmd := exec.CommandContext(ctx, exe, append([]string{"serve", "--log-level", "warn", "--http", addr}, files...)...)
	cmd.Stdout, cmd.Stderr = io.Discard, stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, stop, nil
			}
		}
	}
	stop()
	return "", nil, errors.New("mcpgen serve did not become healthy in 30s")
}
