package runtime

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/watch"
)

// subscribe is the resources/subscribe handler. A URI of a templated file
// resource starts being watched; other URIs need nothing (fixed files are
// watched already, other resources never change).
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	for _, r := range s.plan.Templates {
		if r.File == nil {
			continue
		}
		args, ok := r.URIArgs(uri)
		if !ok {
			continue
		}
		name, err := r.File.Execute(map[string]any{"args": args})
		if err != nil || !filepath.IsLocal(name) {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no resource at %q", uri)}
		}
		return s.plan.Watch.Add(watch.File{URI: uri, Root: r.Root, Name: name})
	}
	return nil
}

// WatchResources notifies subscribers of a file-backed resource whenever its
// file changes (modification time or size), until ctx is canceled. The
// go-sdk keeps the subscriptions and sends notifications/resources/updated
// only to the sessions that subscribed to that URI; srv is the server MCP
// returned, which the transport serves.
func (s *Server) WatchResources(ctx context.Context, srv *mcp.Server) {
	if s.live != nil {
		return // Live watches the files of the config it serves
	}
	s.watchResources(ctx, srv)
}

func (s *Server) watchResources(ctx context.Context, srv *mcp.Server) {
	if !s.watches() {
		return
	}
	tick := time.NewTicker(s.plan.WatchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, uri := range s.plan.Watch.Changed() {
			_ = srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}
	}
}

// watches reports whether any resource is backed by a file.
func (s *Server) watches() bool {
	if s.plan.Watch.HasFixed() {
		return true
	}
	for _, r := range s.plan.Templates {
		if r.File != nil {
			return true
		}
	}
	return false
}
