package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Set at link time by release builds (scripts/release.sh), for example
// -ldflags "-X main.version=v1.2.3 -X main.commit=<hash> -X main.date=<RFC 3339>".
// Each one left empty falls back to what the Go toolchain recorded in the
// binary: the module version (set by go install …@VERSION) and the
// repository's commit, commit time and state (set by go build in a git clone;
// not in a git worktree, hence the link-time values).
var (
	version  = ""
	commit   = ""
	date     = ""
	modified = "" // "true" when built from a tree with uncommitted changes
)

// buildStamp is what mcpgen version reports.
type buildStamp struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Date     string `json:"date,omitempty"`
	Modified bool   `json:"modified,omitempty"` // built from a tree with uncommitted changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// versionFlags are the flags of `mcpgen version`.
type versionFlags struct {
	asJSON bool
}

// versionCommand declares `mcpgen version`.
func versionCommand() *cobra.Command {
	var f versionFlags
	cmd := newCommand("version [--json]", "print the version, commit and build date",
		func(ctx context.Context, pos []string, std stdio) int { return runVersion(ctx, pos, std, &f) })
	fs := cmd.Flags()
	fs.BoolVar(&f.asJSON, "json", false, "print the version, commit and build date as a JSON object")
	return cmd
}

func runVersion(ctx context.Context, pos []string, std stdio, f *versionFlags) int {
	if len(pos) > 0 {
		return usageError(std.err, "version", "version takes no arguments")
	}
	info, _ := debug.ReadBuildInfo()
	s := stamp(info, buildStamp{Version: version, Commit: commit, Date: date, Modified: modified == "true"})
	if f.asJSON {
		enc := json.NewEncoder(std.out)
		enc.SetIndent("", "  ")
		enc.Encode(s)
		return exitOK
	}
	printStamp(std.out, s)
	return exitOK
}

// stamp combines the build info the toolchain recorded (nil when there is
// none) with the values set at link time (ld), which win when not empty.
func stamp(info *debug.BuildInfo, ld buildStamp) buildStamp {
	s := buildStamp{Go: goruntime.Version(), Platform: goruntime.GOOS + "/" + goruntime.GOARCH}
	if info != nil {
		s.Version = info.Main.Version
		if info.GoVersion != "" {
			s.Go = info.GoVersion
		}
		for _, kv := range info.Settings {
			switch kv.Key {
			case "vcs.revision":
				s.Commit = kv.Value
			case "vcs.time":
				s.Date = kv.Value
			case "vcs.modified":
				s.Modified = kv.Value == "true"
			}
		}
	}
	s.Version = cmp.Or(ld.Version, s.Version)
	s.Commit = cmp.Or(ld.Commit, s.Commit)
	s.Date = cmp.Or(ld.Date, s.Date)
	s.Modified = s.Modified || ld.Modified
	if s.Version == "" || s.Version == "(devel)" {
		s.Version = "devel"
	}
	return s
}

// printStamp writes s as text: the version on the first line, then one
// line per fact that is known.
func printStamp(w io.Writer, s buildStamp) {
	fmt.Fprintf(w, "mcpgen %s\n", s.Version)
	if s.Commit != "" {
		modified := ""
		if s.Modified {
			modified = " (modified)"
		}
		fmt.Fprintf(w, "commit: %s%s\n", s.Commit, modified)
	}
	if s.Date != "" {
		fmt.Fprintf(w, "date:   %s\n", s.Date)
	}
	fmt.Fprintf(w, "go:     %s %s\n", s.Go, s.Platform)
}
