package reload

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults of WatchOptions.
const (
	// DefaultQuiet is how long the files must stay unchanged before a
	// reload: an editor's save is a burst of events (truncate then write,
	// several writes, a rename over the file), and a reload between them
	// would build a half-written file.
	DefaultQuiet = 150 * time.Millisecond
	// DefaultMaxDelay bounds how long changes that never stop postpone
	// the reload.
	DefaultMaxDelay = 2 * time.Second
)

// WatchOptions tune Watch. Zero values take the defaults.
type WatchOptions struct {
	// Files turns on watching the files; without it only Requests reload.
	Files bool
	// Quiet and MaxDelay: see DefaultQuiet and DefaultMaxDelay.
	Quiet, MaxDelay time.Duration
	// Requests, when set, asks for a reload at once for every value
	// received (SIGHUP).
	Requests <-chan struct{}
}

// Watch reloads the config whenever one of its files changes, and for
// every value on opts.Requests, until ctx is canceled. The files are
// watched when it returns; the watching goes on in the background, and
// stopped is closed when it ends. It watches the directories of the
// files, so that an editor replacing a file by renaming another over it
// is seen, as is a file that is created. The files watched follow the
// config: a reload that reads a new file watches it too.
func (r *Reloader) Watch(ctx context.Context, opts WatchOptions) (stopped <-chan struct{}, err error) {
	opts.Quiet = cmpOr(opts.Quiet, DefaultQuiet)
	opts.MaxDelay = cmpOr(opts.MaxDelay, DefaultMaxDelay)
	done := make(chan struct{})
	if !opts.Files {
		go func() { defer close(done); r.onRequest(ctx, opts.Requests) }()
		return done, nil
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the config: %w", err)
	}
	ws := &watchSet{w: w, dirs: map[string]bool{}}
	ws.follow(r.Files(), r.opts.Logger)
	r.watching.Store(true)
	go func() {
		defer close(done)
		defer w.Close()
		defer r.watching.Store(false)
		r.watchLoop(ctx, ws, opts)
	}()
	return done, nil
}

// watchLoop reloads after each burst of changes to the files of ws.
func (r *Reloader) watchLoop(ctx context.Context, ws *watchSet, opts WatchOptions) {
	w := ws.w
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	var first time.Time // of the changes not yet reloaded; zero for none
	reload := func() {
		timer.Stop()
		first = time.Time{}
		r.Reload(ctx)
		ws.follow(r.Files(), r.opts.Logger)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !ws.files[filepath.Clean(ev.Name)] || ev.Op == fsnotify.Chmod {
				continue
			}
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			// Wait for quiet, but not past MaxDelay after the first change.
			timer.Reset(min(opts.Quiet, max(first.Add(opts.MaxDelay).Sub(now), 0)))
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			r.opts.Logger.Warn("watching the config", "err", err)
		case <-opts.Requests:
			reload()
		case <-timer.C:
			reload()
		}
	}
}

// onRequest reloads for every request until ctx is canceled.
func (r *Reloader) onRequest(ctx context.Context, reqs <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-reqs:
			r.Reload(ctx)
		}
	}
}

func cmpOr(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// watchSet is what one Watch follows: files, and the directories watched
// for them.
type watchSet struct {
	w     *fsnotify.Watcher
	files map[string]bool
	dirs  map[string]bool
}

// follow watches the directories of files, and only those. A file that
// is a symbolic link (a config mounted from a ConfigMap, or linked from a
// dotfiles repository) is followed to its target too: an edit of the
// target changes the config without touching the link's directory.
func (ws *watchSet) follow(files []string, logger interface{ Warn(string, ...any) }) {
	ws.files = map[string]bool{}
	want := map[string]bool{}
	for _, f := range files {
		ws.files[f] = true
		want[filepath.Dir(f)] = true
		if real, err := filepath.EvalSymlinks(f); err == nil && real != f {
			ws.files[real] = true
			want[filepath.Dir(real)] = true
		}
	}
	for d := range ws.dirs {
		if !want[d] {
			_ = ws.w.Remove(d)
			delete(ws.dirs, d)
		}
	}
	for d := range want {
		if ws.dirs[d] {
			continue
		}
		if err := ws.w.Add(d); err != nil {
			logger.Warn("watching a directory of the config", "dir", d, "err", err)
			continue
		}
		ws.dirs[d] = true
	}
}
