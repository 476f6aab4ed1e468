// Package watch tells which of a set of files changed since it last
// looked, for the subscribers of file-backed resources: the files of
// resources with a fixed file, from the start, and those of templated file
// resources, added as clients subscribe to their URIs.
package watch

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// Interval is how often file-backed resources are checked for changes
// unless told otherwise.
const Interval = time.Second

// maxWatched bounds the URIs of templated file resources watched for
// subscribers: each is a stat per interval, and a client chooses them.
const maxWatched = 1000

// File is a resource URI backed by one file: Name, inside the directory
// Root (it cannot leave it).
type File struct {
	URI, Root, Name string
}

// stamp identifies a version of a file.
type stamp struct {
	mod  time.Time
	size int64
	ok   bool
}

// watched is a file and the version last seen.
type watched struct {
	File
	last stamp
}

// Set holds the files watched. Its methods are safe for concurrent use.
type Set struct {
	mu      sync.Mutex
	fixed   []*watched
	dynamic map[string]*watched // by URI
}

// NewSet watches the fixed files, from now on.
func NewSet(fixed []File) *Set {
	ws := &Set{dynamic: map[string]*watched{}}
	for _, f := range fixed {
		w := &watched{File: f}
		w.last = w.stamp()
		ws.fixed = append(ws.fixed, w)
	}
	return ws
}

// HasFixed reports whether the set was made with any fixed file.
func (ws *Set) HasFixed() bool { return len(ws.fixed) > 0 }

// Add watches f, unless its URI is watched already.
func (ws *Set) Add(f File) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if _, ok := ws.dynamic[f.URI]; ok {
		return nil
	}
	if len(ws.dynamic) >= maxWatched {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: fmt.Sprintf("too many resources subscribed to (at most %d)", maxWatched)}
	}
	w := &watched{File: f}
	w.last = w.stamp()
	ws.dynamic[f.URI] = w
	return nil
}

// Changed returns the URIs whose files changed since the last call.
func (ws *Set) Changed() []string {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var uris []string
	check := func(w *watched) {
		if st := w.stamp(); st != w.last {
			w.last = st
			uris = append(uris, w.URI)
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

func (w *watched) stamp() stamp {
	root, err := os.OpenRoot(w.Root)
	if err != nil {
		return stamp{}
	}
	defer root.Close()
	fi, err := root.Stat(w.Name)
	if err != nil {
		return stamp{}
	}
	return stamp{mod: fi.ModTime(), size: fi.Size(), ok: true}
}
