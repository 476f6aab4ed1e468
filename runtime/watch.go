package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// maxWatched bounds the URIs of templated file resources watched for
// subscribers: each is a stat per interval, and a client chooses them.
const maxWatched = 1000

// fileStamp identifies a version of a file.
type fileStamp struct {
	mod  time.Time
	size int64
	ok   bool
}

// watched is a resource URI backed by one file.
type watched struct {
	uri, root, name string
	last            fileStamp
}

// watchSet holds the files watched for subscribers: those of resources
// with a fixed file, from the start, and those of templated file resources,
// added as clients subscribe to their URIs.
type watchSet struct {
	mu      sync.Mutex
	fixed   []*watched
	dynamic map[string]*watched // by URI
}

// subscribe is the resources/subscribe handler. A URI of a templated file
// resource starts being watched; other URIs need nothing (fixed files are
// watched already, other resources never change).
func (s *Server) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	for _, r := range s.templates {
		if r.file == nil {
			continue
		}
		args, ok := r.uriArgs(uri)
		if !ok {
			continue
		}
		name, err := r.file.Execute(map[string]any{"args": args})
		if err != nil || !filepath.IsLocal(name) {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no resource at %q", uri)}
		}
		return s.watch.add(&watched{uri: uri, root: r.root, name: name})
	}
	return nil
}

// add watches w, unless its URI is watched already.
func (ws *watchSet) add(w *watched) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if _, ok := ws.dynamic[w.uri]; ok {
		return nil
	}
	if len(ws.dynamic) >= maxWatched {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("too many resources subscribed to (at most %d)", maxWatched)}
	}
	w.last = w.stamp()
	ws.dynamic[w.uri] = w
	return nil
}

// changed returns the URIs whose files changed since the last call.
func (ws *watchSet) changed() []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var uris []string
	check := func(w *watched) {
		if st := w.stamp(); st != w.last {
			w.last = st
			uris = append(uris, w.uri)
		}
	}
	for _, w := range ws.fixed {
		check(w)
	}
	for _, w := range ws.dynamic {
		check(w)
	}
	return uris
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
	tick := time.NewTicker(s.watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, uri := range s.watch.changed() {
			_ = srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri})
		}
	}
}

// watches reports whether any resource is backed by a file.
func (s *Server) watches() bool {
	if len(s.watch.fixed) > 0 {
		return true
	}
	for _, r := range s.templates {
		if r.file != nil {
			return true
		}
	}
	return false
}

func (w *watched) stamp() fileStamp {
	root, err := os.OpenRoot(w.root)
	if err != nil {
		return fileStamp{}
	}
	defer root.Close()
	fi, err := root.Stat(w.name)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{mod: fi.ModTime(), size: fi.Size(), ok: true}
}
