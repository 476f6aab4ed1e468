package runtime

import (
	"context"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// watchInterval is how often file-backed resources are checked for changes.
const watchInterval = time.Second

// fileStamp identifies a version of a file.
type fileStamp struct {
	mod  time.Time
	size int64
	ok   bool
}

// watched is a resource backed by one fixed file.
type watched struct {
	uri, root, name string
	last            fileStamp
}

// watchResources notifies subscribers of a file-backed resource whenever its
// file changes (modification time or size), until ctx is canceled. The
// go-sdk keeps the subscriptions and sends notifications/resources/updated
// only to the sessions that subscribed to that URI.
func (s *Server) watchResources(ctx context.Context, srv *mcp.Server) {
	var files []*watched
	for _, r := range s.resources {
		if name, ok := constOf(r.file); ok && r.file != nil {
			w := &watched{uri: r.def.URI, root: r.root, name: name}
			w.last = w.stamp()
			files = append(files, w)
		}
	}
	if len(files) == 0 {
		return
	}
	every := s.watchEvery
	if every <= 0 {
		every = watchInterval
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for _, w := range files {
			if st := w.stamp(); st != w.last {
				w.last = st
				_ = srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: w.uri})
			}
		}
	}
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
