package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/reload"
)

// startReloader builds files for serving and later reloads, each build
// narrowed to sel, writing every diagnostic to w, then a summary when the
// config does not build: it returns nil then, unless serveBroken (`mcpgen
// dev`). A selection that does not fit the first build is returned as an
// error, for a usage error.
func startReloader(files []string, bo runtime.BuildOptions, sel runtime.Selection, serveBroken bool, w io.Writer) (*reload.Reloader, load.Diagnostics, error) {
	var selErr error
	rl, ds := reload.Start(reload.Options{Paths: files, Build: bo, Logger: bo.Logger,
		Metrics: bo.Observer.Metrics, Compile: compileToServe, Select: func(s *runtime.Server) error {
			err := s.Select(sel)
			if selErr == nil && err != nil {
				selErr = err // of the first build; later ones are reported as failed reloads
			}
			return err
		}}, serveBroken)
	if rl == nil && selErr != nil {
		return nil, ds, selErr
	}
	for _, d := range ds {
		fmt.Fprintln(w, d)
	}
	if ds.Errors() > 0 {
		fmt.Fprintln(w, ds.Summary())
	}
	return rl, ds, nil
}

// reloadOn reloads the config on SIGHUP, and when its files change if
// files is set, until ctx is canceled. SIGHUP is caught, and the files
// watched, from the moment it returns.
func reloadOn(ctx context.Context, rl *reload.Reloader, files bool) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	reqs := make(chan struct{}, 1)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				select {
				case reqs <- struct{}{}:
				default: // one is pending already
				}
			}
		}
	}()
	if _, err := rl.Watch(ctx, reload.WatchOptions{Files: files, Requests: reqs}); err != nil {
		rl.Server().Logger().Error("not watching the config; SIGHUP still reloads it", "err", err)
		_, _ = rl.Watch(ctx, reload.WatchOptions{Requests: reqs})
	}
}
