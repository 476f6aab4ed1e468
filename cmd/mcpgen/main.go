// Command mcpgen serves an MCP server described in YAML.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	// sets GOGC before the packages that allocate most in their init
	_ "github.com/mcpgen/mcpgen/cmd/mcpgen/internal/gcstart"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
