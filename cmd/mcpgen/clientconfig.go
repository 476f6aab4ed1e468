package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/cmd/mcpgen/internal/pack"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/spf13/cobra"
)

// clientConfigFlags are the flags of `mcpgen client-config`.
type clientConfigFlags struct {
	client string
	url    string
}

// clientConfigCommand declares `mcpgen client-config`.
func clientConfigCommand() *cobra.Command {
	var f clientConfigFlags
	cmd := newCommand("client-config [flags] FILE...", "print what to add to a client's configuration to use a config",
		func(ctx context.Context, files []string, std stdio) int { return runClientConfig(ctx, files, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.client, "client", "", "print only this client's snippets: "+strings.Join(pack.Clients, ", "))
	completeWords(cmd, "client", pack.Clients...)
	fs.StringVar(&f.url, "url", "", "the server's Streamable HTTP endpoint, for the HTTP snippets (default: from server.http.addr, else http://127.0.0.1:8080/mcp)")
	return cmd
}

func runClientConfig(ctx context.Context, files []string, std stdio, f *clientConfigFlags) int {
	switch {
	case len(files) == 0:
		return usageError(std.err, "client-config", "no config file given")
	case f.client != "" && !slices.Contains(pack.Clients, f.client):
		return usageError(std.err, "client-config", fmt.Sprintf("unknown client %q: use %s", f.client, strings.Join(pack.Clients, ", ")))
	}
	info, err := describeConfigs(files)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	l, err := launch(files, info, f.url)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	printSnippets(std.out, l, f.client)
	return exitOK
}

// launch says how clients start this mcpgen on files, or reach it at url.
func launch(files []string, info *configInfo, url string) (pack.Launch, error) {
	exe, err := os.Executable()
	if err != nil {
		return pack.Launch{}, fmt.Errorf("finding mcpgen's own path: %w", err)
	}
	if p, err := filepath.EvalSymlinks(exe); err == nil {
		exe = p
	}
	args := []string{"serve", "--stdio"}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return pack.Launch{}, err
		}
		args = append(args, abs)
	}
	name := cmp.Or(info.server.Name, strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0])))
	return pack.Launch{Name: name, Command: exe, Args: args, Env: info.env, URL: cmp.Or(url, endpoint(info.addr))}, nil
}

// endpoint is the URL of a server listening at addr (127.0.0.1 for a
// wildcard host), or the usual local one.
func endpoint(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if addr == "" || err != nil {
		return "http://127.0.0.1:8080/mcp"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/mcp"
}

// printSnippets writes the stdio snippets, then how to serve over HTTP and
// the HTTP ones.
func printSnippets(w io.Writer, l pack.Launch, client string) {
	var stdioS, httpS []pack.Snippet
	for _, s := range pack.Snippets(l) {
		if strings.HasSuffix(s.Title, "(HTTP)") {
			httpS = append(httpS, s)
		} else {
			stdioS = append(stdioS, s)
		}
	}
	fmt.Fprintln(w, "## stdio: the client starts mcpgen itself")
	fmt.Fprintln(w)
	pack.WriteSnippets(w, stdioS, client)
	fmt.Fprintf(w, "## Streamable HTTP: serve it yourself, e.g. %s serve --http %s %s\n\n",
		l.Command, strings.TrimSuffix(strings.TrimPrefix(l.URL, "http://"), "/mcp"), strings.Join(l.Args[2:], " "))
	pack.WriteSnippets(w, httpS, client)
	writeVariables(w, l.Env)
}

// writeVariables lists the variables the configs need a value for (those
// without a default), each a <NAME> placeholder in the snippets (VS Code
// asks for secrets), marking the secrets.
func writeVariables(w io.Writer, vars []load.EnvVar) {
	vars = slices.DeleteFunc(slices.Clone(vars), func(v load.EnvVar) bool { return v.HasDefault })
	if len(vars) == 0 {
		return
	}
	fmt.Fprintln(w, "# Variables to fill: replace each placeholder above with its value (or set it where the server runs).")
	width := 0
	for _, v := range vars {
		width = max(width, len(v.Name))
	}
	for _, v := range vars {
		kind := "value"
		if v.Secret {
			kind = "secret"
		}
		fmt.Fprintf(w, "#   %-*s  %s\n", width, v.Name, kind)
	}
}
